/*
 * kafka-conformance: what Authorizer.start() is given -- one PLAINTEXT listener
 * on 127.0.0.1:9092 (never opened), broker 0, cluster "kafka-conformance".
 */
package kafka_conformance.jvm;

import org.apache.kafka.common.ClusterResource;
import org.apache.kafka.common.Endpoint;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.server.authorizer.AuthorizerServerInfo;

import java.util.Collection;
import java.util.List;

final class ServerInfo implements AuthorizerServerInfo {
    private final Endpoint endpoint = new Endpoint("PLAINTEXT", SecurityProtocol.PLAINTEXT, "127.0.0.1", 9092);

    @Override
    public ClusterResource clusterResource() {
        return new ClusterResource("kafka-conformance");
    }

    @Override
    public int brokerId() {
        return 0;
    }

    @Override
    public Collection<Endpoint> endpoints() {
        return List.of(endpoint);
    }

    @Override
    public Endpoint interBrokerEndpoint() {
        return endpoint;
    }

    // No @Override: the method exists in the interface from 3.3 on, and the shim compiles against 2.4+.
    public Collection<String> earlyStartListeners() {
        return List.of();
    }
}
