/*
 * kafka-conformance: OUR minimal ACL-store authorizer (not Kafka code).
 *
 * Why it exists: kafka-clients ships the Authorizer interface and its default
 * authorizeByResourceType (KIP-679), but no authorizer.  This class stores
 * ACLs by id (KIP-801 style) and deliberately does NOT override
 * authorizeByResourceType, so the real Kafka 4.3.0 default method runs on top
 * of it.  The default calls authorize() (the "hardcode" probe) and acls(), so
 * both follow StandardAuthorizer 4.3.0 semantics as the kit's reference
 * (reference/authorizer/decide.py) states them, step for step:
 *   1. non-LITERAL action -> IllegalArgumentException;
 *   2. super user -> ALLOWED;  3. before completeInitialLoad -> not ready;
 *   4. session principal User:* -> IllegalArgumentException (Set.of, KAFKA-17759);
 *   5. R = ACLs of the type whose name matches (LITERAL equal, or '*' unless the name starts
 *      with '*', else prefix);
 *   6. R empty -> allow.everyone.if.no.acl.found;
 *   7. any applying DENY (or unknown permission) -> DENIED, else ALLOW -> ALLOWED, else DENIED.
 * Applying: principal parsed first (unparseable -> IllegalStateException), then
 * host, then operation (ALL, equal, or implied for ALLOW only).  R is met in StandardAcl's
 * order (names in reverse, then pattern type, operation, principal, host, permission), and
 * the first applying DENY ends the walk, so an unparseable principal met after it never throws.
 */
package kafka_conformance.jvm;

import org.apache.kafka.common.Endpoint;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.apache.kafka.server.authorizer.Authorizer;
import org.apache.kafka.server.authorizer.AuthorizerServerInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

public class ListAuthorizer implements Authorizer {
    private final Map<String, AclBinding> byId = new LinkedHashMap<>();
    /** The bindings of byId, for the duplicate check: a set lookup, so a snapshot of n ACLs loads in O(n). */
    private final Set<AclBinding> held = new HashSet<>();
    private final Set<String> superUsers = new HashSet<>();
    private boolean allowEveryone;
    private boolean ready;

    @Override
    public void configure(Map<String, ?> configs) {
        Object users = configs.get("super.users");
        if (users != null) {
            for (String value : users.toString().split(";")) {
                String v = value.trim();
                if (!v.isEmpty()) {
                    Codec.parsePrincipal(v);
                    superUsers.add(v);
                }
            }
        }
        Object everyone = configs.get("allow.everyone.if.no.acl.found");
        allowEveryone = everyone != null && Boolean.parseBoolean(everyone.toString().trim());
    }

    @Override
    public Map<Endpoint, ? extends CompletionStage<Void>> start(AuthorizerServerInfo info) {
        Map<Endpoint, CompletableFuture<Void>> out = new HashMap<>();
        info.endpoints().forEach(e -> out.put(e, CompletableFuture.completedFuture(null)));
        return out;
    }

    // -- KIP-801 record path (the shim drives these like ClusterMetadataAuthorizer's) --
    public synchronized void loadSnapshot(Map<String, AclBinding> acls) {
        ListAuthorizer fresh = new ListAuthorizer();
        acls.forEach(fresh::addAcl);
        byId.clear();
        byId.putAll(fresh.byId);
        held.clear();
        held.addAll(fresh.held);
    }

    public synchronized void addAcl(String id, AclBinding acl) {
        if (byId.containsKey(id)) {
            throw new RuntimeException("An ACL with ID " + id + " already exists.");
        }
        if (held.contains(acl)) {
            throw new RuntimeException("ACL " + acl + " (id " + id + ") duplicates an existing ACL.");
        }
        byId.put(id, acl);
        held.add(acl);
    }

    public synchronized void removeAcl(String id) {
        AclBinding removed = byId.remove(id);
        if (removed == null) {
            throw new RuntimeException("ID " + id + " not found in ACLs.");
        }
        held.remove(removed);
    }

    public synchronized void completeInitialLoad() {
        ready = true;
    }

    // -- Authorizer ---------------------------------------------------------------------
    @Override
    public synchronized List<AuthorizationResult> authorize(AuthorizableRequestContext ctx, List<Action> actions) {
        List<AuthorizationResult> out = new ArrayList<>(actions.size());
        for (Action action : actions) {
            out.add(decide(ctx, action));
        }
        return out;
    }

    private AuthorizationResult decide(AuthorizableRequestContext ctx, Action action) {
        ResourcePattern resource = action.resourcePattern();
        if (resource.patternType() != PatternType.LITERAL) {
            throw new IllegalArgumentException("Only literal resources are supported. Got: " + resource.patternType());
        }
        KafkaPrincipal session = ctx.principal();
        String principal = session.getPrincipalType() + ":" + session.getName();
        if (superUsers.contains(principal)) {
            return AuthorizationResult.ALLOWED;
        }
        if (!ready) {
            throw Codec.notReady();
        }
        if ("User:*".equals(principal)) {
            throw new IllegalArgumentException("duplicate element: User:*");
        }
        String host = ctx.clientAddress().getHostAddress();
        List<AclBinding> onResource = new ArrayList<>();
        for (AclBinding acl : byId.values()) {
            ResourcePattern p = acl.pattern();
            if (p.resourceType() == resource.resourceType() && nameMatches(p, resource.name())) {
                onResource.add(acl);
            }
        }
        onResource.sort(STANDARD_ACL_ORDER);
        boolean matched = !onResource.isEmpty();
        boolean denied = false;
        boolean allowed = false;
        for (AclBinding acl : onResource) {
            AccessControlEntry e = acl.entry();
            boolean isAllow = e.permissionType() == AclPermissionType.ALLOW;
            if (!"User:*".equals(e.principal())) {
                KafkaPrincipal owner;
                try {
                    owner = (KafkaPrincipal) Codec.parsePrincipal(e.principal());
                } catch (IllegalArgumentException bad) {
                    throw new IllegalStateException("stored ACL has an unparseable principal: " + e.principal(), bad);
                }
                if (!owner.getPrincipalType().equals(session.getPrincipalType()) || !owner.getName().equals(session.getName())) {
                    continue;
                }
            }
            if (!"*".equals(e.host()) && !e.host().equals(host)) {
                continue;
            }
            if (operationMatches(e.operation(), action.operation(), isAllow)) {
                if (!isAllow) {
                    denied = true;
                    break;
                }
                allowed = true;
            }
        }
        if (denied) {
            return AuthorizationResult.DENIED;
        }
        if (allowed) {
            return AuthorizationResult.ALLOWED;
        }
        return matched || !allowEveryone ? AuthorizationResult.DENIED : AuthorizationResult.ALLOWED;
    }

    /** StandardAcl.compareTo within one resource type. */
    private static final java.util.Comparator<AclBinding> STANDARD_ACL_ORDER =
        java.util.Comparator.<AclBinding, String>comparing(a -> a.pattern().name(), java.util.Comparator.reverseOrder())
            .thenComparingInt(a -> a.pattern().patternType().code())
            .thenComparingInt(a -> a.entry().operation().code())
            .thenComparing(a -> a.entry().principal())
            .thenComparing(a -> a.entry().host())
            .thenComparingInt(a -> a.entry().permissionType().code());

    private static boolean nameMatches(ResourcePattern p, String name) {
        if (p.patternType() == PatternType.LITERAL) {
            // LITERAL '*' is skipped for a name that begins with '*' (StandardAuthorizer's walk, 3.2.0 on)
            return p.name().equals(name) || (p.name().equals("*") && !name.startsWith("*"));
        }
        return name.startsWith(p.name());
    }

    private static boolean operationMatches(AclOperation acl, AclOperation asked, boolean isAllow) {
        if (acl == AclOperation.ALL || acl == asked) {
            return true;
        }
        if (!isAllow) {
            return false;
        }
        if (asked == AclOperation.DESCRIBE) {
            return acl == AclOperation.READ || acl == AclOperation.WRITE || acl == AclOperation.DELETE || acl == AclOperation.ALTER;
        }
        return asked == AclOperation.DESCRIBE_CONFIGS && acl == AclOperation.ALTER_CONFIGS;
    }

    // authorizeByResourceType: NOT overridden on purpose -- Kafka's interface default runs.

    @Override
    public synchronized List<? extends CompletionStage<AclCreateResult>> createAcls(AuthorizableRequestContext ctx, List<AclBinding> acls) {
        List<CompletableFuture<AclCreateResult>> out = new ArrayList<>();
        for (AclBinding acl : acls) {
            if (held.add(acl)) {
                byId.put(UUID.randomUUID().toString(), acl);
            }
            out.add(CompletableFuture.completedFuture(AclCreateResult.SUCCESS));
        }
        return out;
    }

    @Override
    public synchronized List<? extends CompletionStage<AclDeleteResult>> deleteAcls(AuthorizableRequestContext ctx, List<AclBindingFilter> filters) {
        List<CompletableFuture<AclDeleteResult>> out = new ArrayList<>();
        Map<String, AclBinding> before = new LinkedHashMap<>(byId);
        for (AclBindingFilter filter : filters) {
            List<AclDeleteResult.AclBindingDeleteResult> hits = new ArrayList<>();
            before.forEach((id, acl) -> {
                if (filter.matches(acl)) {
                    if (byId.remove(id) != null) {
                        held.remove(acl);
                    }
                    hits.add(new AclDeleteResult.AclBindingDeleteResult(acl));
                }
            });
            out.add(CompletableFuture.completedFuture(new AclDeleteResult(hits)));
        }
        return out;
    }

    @Override
    public synchronized Iterable<AclBinding> acls(AclBindingFilter filter) {
        List<AclBinding> out = new ArrayList<>();
        for (AclBinding acl : byId.values()) {
            if (filter.matches(acl)) {
                out.add(acl);
            }
        }
        return out;
    }

    // No @Override: Authorizer.aclCount() exists from Kafka 3.0, and the shim compiles against 2.4+.
    public synchronized int aclCount() {
        return byId.size();
    }

    @Override
    public void close() {
    }
}
