/*
 * kafka-conformance: a request context as a broker would build it.
 *
 * The request type must be a real API key: StandardAuthorizer's audit log
 * resolves it, and an invalid id (-1) throws there.  The kit asks on behalf of
 * a METADATA request (key 3) by default; the admin path uses CREATE_ACLS (30)
 * and DELETE_ACLS (31).
 */
package kafka_conformance.jvm;

import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;

import java.net.InetAddress;

public final class RequestContext implements AuthorizableRequestContext {
    private final KafkaPrincipal principal;
    private final InetAddress address;
    private final int requestType;

    public RequestContext(KafkaPrincipal principal, InetAddress address, int requestType) {
        this.principal = principal;
        this.address = address;
        this.requestType = requestType;
    }

    /** The kit's own identity for createAcls/deleteAcls calls. */
    public static RequestContext admin(int requestType) {
        return new RequestContext(new KafkaPrincipal("User", "kafka-conformance-admin"),
            InetAddress.getLoopbackAddress(), requestType);
    }

    @Override
    public String listenerName() {
        return "PLAINTEXT";
    }

    @Override
    public SecurityProtocol securityProtocol() {
        return SecurityProtocol.PLAINTEXT;
    }

    @Override
    public KafkaPrincipal principal() {
        return principal;
    }

    @Override
    public InetAddress clientAddress() {
        return address;
    }

    @Override
    public int requestType() {
        return requestType;
    }

    @Override
    public int requestVersion() {
        return 0;
    }

    @Override
    public String clientId() {
        return "kafka-conformance";
    }

    @Override
    public int correlationId() {
        return 1;
    }
}
