/*
 * Test fixture: a STAND-IN for Kafka's kafka-metadata interface of the same name
 * (not on our classpath), with the record methods the shim calls reflectively,
 * as declared in Kafka 4.x (setAclMutator and the admin defaults omitted).
 */
package org.apache.kafka.metadata.authorizer;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.server.authorizer.Authorizer;

import java.util.Map;

public interface ClusterMetadataAuthorizer extends Authorizer {
    void loadSnapshot(Map<Uuid, StandardAcl> acls);

    void addAcl(Uuid id, StandardAcl acl);

    void removeAcl(Uuid id);
}
