/*
 * Test fixture: a ClusterMetadataAuthorizer (stand-in interface) that keeps
 * Uuid-keyed StandardAcls, delegating decisions to the shim's ListAuthorizer,
 * to exercise the shim's reflective "metadata" driver end to end.
 */
package org.apache.kafka.metadata.authorizer;

import kafka_conformance.jvm.ListAuthorizer;
import org.apache.kafka.common.Endpoint;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.apache.kafka.server.authorizer.AuthorizerServerInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

public class FakeStandardAuthorizer implements ClusterMetadataAuthorizer {
    private final ListAuthorizer inner = new ListAuthorizer();

    public void loadSnapshot(Map<Uuid, StandardAcl> acls) {
        Map<String, AclBinding> converted = new LinkedHashMap<>();
        acls.forEach((id, acl) -> converted.put(id.toString(), acl.toBinding()));
        inner.loadSnapshot(converted);
    }

    public void addAcl(Uuid id, StandardAcl acl) {
        inner.addAcl(id.toString(), acl.toBinding());
    }

    public void removeAcl(Uuid id) {
        inner.removeAcl(id.toString());
    }

    public void completeInitialLoad() {
        inner.completeInitialLoad();
    }

    public void configure(Map<String, ?> configs) {
        inner.configure(configs);
    }

    public Map<Endpoint, ? extends CompletionStage<Void>> start(AuthorizerServerInfo info) {
        return inner.start(info);
    }

    public List<AuthorizationResult> authorize(AuthorizableRequestContext ctx, List<Action> actions) {
        return inner.authorize(ctx, actions);
    }

    public List<? extends CompletionStage<AclCreateResult>> createAcls(AuthorizableRequestContext ctx, List<AclBinding> acls) {
        throw new UnsupportedOperationException("KRaft authorizers take ACLs from records");
    }

    public List<? extends CompletionStage<AclDeleteResult>> deleteAcls(AuthorizableRequestContext ctx, List<AclBindingFilter> filters) {
        throw new UnsupportedOperationException("KRaft authorizers take ACLs from records");
    }

    public Iterable<AclBinding> acls(AclBindingFilter filter) {
        return inner.acls(filter);
    }

    public int aclCount() {
        return inner.aclCount();
    }

    public void close() {
    }
}
