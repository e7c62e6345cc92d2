/* Test fixture: a STAND-IN for Kafka's StandardAcl (only what the shim uses). */
package org.apache.kafka.metadata.authorizer;

import org.apache.kafka.common.acl.AclBinding;

public final class StandardAcl {
    private final AclBinding binding;

    private StandardAcl(AclBinding binding) {
        this.binding = binding;
    }

    public static StandardAcl fromAclBinding(AclBinding acl) {
        return new StandardAcl(acl);
    }

    public AclBinding toBinding() {
        return binding;
    }
}
