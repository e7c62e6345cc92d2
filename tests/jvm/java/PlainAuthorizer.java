/*
 * Test fixture: an Authorizer with no record methods, so the shim must feed it
 * through createAcls/deleteAcls (the "plain" driver).  It delegates to the
 * shim's ListAuthorizer and is ready as soon as it is configured.
 */
import kafka_conformance.jvm.ListAuthorizer;
import org.apache.kafka.common.Endpoint;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.apache.kafka.server.authorizer.Authorizer;
import org.apache.kafka.server.authorizer.AuthorizerServerInfo;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

public class PlainAuthorizer implements Authorizer {
    private final ListAuthorizer inner = new ListAuthorizer();

    public void configure(Map<String, ?> configs) {
        inner.configure(configs);
        inner.completeInitialLoad();
    }

    public Map<Endpoint, ? extends CompletionStage<Void>> start(AuthorizerServerInfo info) {
        return inner.start(info);
    }

    public List<AuthorizationResult> authorize(AuthorizableRequestContext ctx, List<Action> actions) {
        return inner.authorize(ctx, actions);
    }

    public List<? extends CompletionStage<AclCreateResult>> createAcls(AuthorizableRequestContext ctx, List<AclBinding> acls) {
        return inner.createAcls(ctx, acls);
    }

    public List<? extends CompletionStage<AclDeleteResult>> deleteAcls(AuthorizableRequestContext ctx, List<AclBindingFilter> filters) {
        return inner.deleteAcls(ctx, filters);
    }

    public Iterable<AclBinding> acls(AclBindingFilter filter) {
        return inner.acls(filter);
    }

    public void close() {
    }
}
