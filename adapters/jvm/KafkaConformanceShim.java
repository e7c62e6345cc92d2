/*
 * kafka-conformance: hosts any org.apache.kafka.server.authorizer.Authorizer
 * for the Python adapter (adapters/jvm/adapter.py), one instance per case.
 *
 * Every entry point takes and returns one encoded string (see Codec) so that
 * a whole batch costs one py4j round trip, and never lets an exception cross
 * py4j: errors come back as '!' answers carrying the kit's error kind.
 *
 * ACLs reach the authorizer the way a broker feeds it:
 *  - "list": our ListAuthorizer, through its KIP-801 style record methods;
 *  - "metadata": a ClusterMetadataAuthorizer (StandardAuthorizer), detected by
 *    interface name because kafka-metadata is not on our compile classpath;
 *    record ids become Uuids (name-based, so reruns are identical) and ACLs
 *    become StandardAcl.fromAclBinding;
 *  - "plain": any other Authorizer, through createAcls/deleteAcls (the admin
 *    path), with the kit's record ids tracked here.
 */
package kafka_conformance.jvm;

import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.Authorizer;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

public final class KafkaConformanceShim {
    private static final String METADATA_AUTHORIZER = "org.apache.kafka.metadata.authorizer.ClusterMetadataAuthorizer";
    private static final long TIMEOUT_S = 30;

    private final Authorizer authorizer;
    private final String driver;
    private final Map<String, AclBinding> plainIds = new LinkedHashMap<>();

    private KafkaConformanceShim(Authorizer authorizer) {
        this.authorizer = authorizer;
        if (authorizer instanceof ListAuthorizer) {
            driver = "list";
        } else if (implementsByName(authorizer.getClass(), METADATA_AUTHORIZER)) {
            driver = "metadata";
        } else {
            driver = "plain";
        }
    }

    /** Instantiate {@code className} (public no-argument constructor) and host it. */
    public static KafkaConformanceShim host(String className) throws Exception {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Class<?> cls = Class.forName(className, true, loader != null ? loader : KafkaConformanceShim.class.getClassLoader());
        if (!Authorizer.class.isAssignableFrom(cls)) {
            throw new IllegalArgumentException(className + " does not implement " + Authorizer.class.getName());
        }
        return new KafkaConformanceShim((Authorizer) cls.getDeclaredConstructor().newInstance());
    }

    public static String kafkaVersion() {
        return Codec.kafkaVersion();
    }

    /**
     * A whole case in one round trip (the kit's {@code run_case}): host a fresh {@code className},
     * make the encoded calls in order, close it. Each call is a token naming it and its arguments as
     * tokens (an argument that is itself encoded is one token). The answer is a token for hosting,
     * then one per call made (what that entry point answers), then one for close. A refused
     * configuration ends the case, as it ends a broker's start.
     *
     * With {@code reuse} (Kafka's own AclAuthorizer only, whose whole state is its ACLs), an instance
     * configured with the same properties (apart from {@code zookeeper.connect}) by an earlier case is
     * taken instead of a new one, its configure() answered as it was then, and after the case it is
     * emptied (deleteAcls of every ACL, checked empty) and kept for the next: it saves the two
     * ZooKeeper sessions each new AclAuthorizer opens and closes.
     */
    public static String runCase(String className, String encoded, boolean reuse) {
        Codec.Writer out = new Codec.Writer();
        Codec.Reader r = new Codec.Reader(encoded);
        String key = null;
        KafkaConformanceShim shim = null;
        if (reuse && r.more()) {
            Codec.Reader peek = new Codec.Reader(encoded);
            if ("configure".equals(peek.str())) {
                key = className + "\u0000" + withoutConnect(peek.str());
                shim = takeIdle(key);
            }
        }
        boolean configured = false;
        boolean clean = true;  // every answer a value or a refusal Kafka defines: nothing half-done
        if (shim != null) {
            r.str();
            r.str();
            out.str(OK).str(OK);  // hosted, and configured as the same properties were before
            configured = true;
        } else {
            try {
                shim = host(className);
            } catch (Throwable t) {
                return out.str(Codec.error(t)).toString();
            }
            out.str(OK);
        }
        while (r.more()) {
            String op = r.str();
            String answer;
            switch (op) {
                case "configure": answer = shim.configure(r.str()); configured = answer.startsWith(OK); break;
                case "load": answer = shim.loadSnapshot(r.str()); break;
                case "add": answer = shim.addAcl(r.str(), r.str()); break;
                case "remove": answer = shim.removeAcl(r.str()); break;
                case "complete": answer = shim.completeInitialLoad(); break;
                case "authorize": answer = shim.authorize(r.str(), r.str()); break;
                case "by-type": answer = shim.authorizeByResourceType(r.str(), r.num(), r.num()); break;
                case "acls": answer = shim.acls(r.str()); break;
                case "count": answer = shim.aclCount(); break;
                default: answer = Codec.error(new IllegalArgumentException("unknown call " + op));
            }
            out.str(answer);
            clean &= answer.startsWith(OK) || isRefusal(answer);
            if (op.equals("configure") && !configured) {
                break;
            }
        }
        if (key != null && configured && clean && shim.emptied()) {
            keepIdle(key, shim);
            return out.str(OK).toString();
        }
        return out.str(shim.close()).toString();
    }

    /** Idle instances by configuration, the least recently used first; at most {@link #MAX_IDLE} in all
     *  (each holds ZooKeeper sessions and threads), the least recently used closed to make room. */
    private static final LinkedHashMap<String, ArrayDeque<KafkaConformanceShim>> IDLE = new LinkedHashMap<>(16, 0.75f, true);
    private static final int MAX_IDLE = 16;
    private static int idleCount;

    private static KafkaConformanceShim takeIdle(String key) {
        synchronized (IDLE) {
            ArrayDeque<KafkaConformanceShim> idle = IDLE.get(key);
            KafkaConformanceShim shim = idle == null ? null : idle.poll();
            if (shim != null) {
                idleCount--;
            }
            if (idle != null && idle.isEmpty()) {
                IDLE.remove(key);
            }
            return shim;
        }
    }

    private static void keepIdle(String key, KafkaConformanceShim shim) {
        List<KafkaConformanceShim> evicted = new ArrayList<>();
        synchronized (IDLE) {
            IDLE.computeIfAbsent(key, k -> new ArrayDeque<>()).push(shim);
            idleCount++;
            while (idleCount > MAX_IDLE) {
                Map.Entry<String, ArrayDeque<KafkaConformanceShim>> eldest = IDLE.entrySet().iterator().next();
                evicted.add(eldest.getValue().pollLast());
                idleCount--;
                if (eldest.getValue().isEmpty()) {
                    IDLE.remove(eldest.getKey());
                }
            }
        }
        for (KafkaConformanceShim old : evicted) {
            old.close();
        }
    }

    /** An error answer of a kind Kafka defines (a refusal), not the authorizer failing. */
    private static boolean isRefusal(String answer) {
        if (!answer.startsWith("!")) {
            return false;
        }
        String kind = new Codec.Reader(answer.substring(1)).str();
        return kind != null && !kind.isEmpty() && !kind.equals("unrepresentable");
    }

    /** The encoded properties without {@code zookeeper.connect}: each case gets a chroot of its own,
     *  and a reused instance keeps the one it was configured with. */
    private static String withoutConnect(String encodedProperties) {
        Codec.Reader r = new Codec.Reader(encodedProperties);
        Codec.Writer w = new Codec.Writer();
        while (r.more()) {
            String name = r.str();
            String value = r.str();
            if (!"zookeeper.connect".equals(name)) {
                w.str(name).str(value);
            }
        }
        return w.toString();
    }

    /** Every ACL deleted through the admin path, and none left: ready for another case. */
    private boolean emptied() {
        if (!driver.equals("plain")) {
            return false;
        }
        try {
            await(authorizer.deleteAcls(RequestContext.admin(31), List.of(AclBindingFilter.ANY)));
            plainIds.clear();
            return !authorizer.acls(AclBindingFilter.ANY).iterator().hasNext();
        } catch (Throwable t) {
            return false;
        }
    }

    /** driver, overrides aclCount?, overrides authorizeByResourceType?, class name. */
    public String describe() throws Exception {
        Class<?> cls = authorizer.getClass();
        Method countMethod = findMethod(cls, "aclCount", 0);
        Method byTypeMethod = findMethod(cls, "authorizeByResourceType", 3);
        boolean count = countMethod != null && countMethod.getDeclaringClass() != Authorizer.class;
        boolean byType = byTypeMethod != null && byTypeMethod.getDeclaringClass() != Authorizer.class;
        return new Codec.Writer().str(driver).str(count ? "1" : "0").str(byType ? "1" : "0").str(cls.getName()).toString();
    }

    private interface Call {
        String run() throws Throwable;
    }

    private static String guard(Call call) {
        try {
            return call.run();
        } catch (Throwable t) {
            return Codec.error(t);
        }
    }

    private static final String OK = "+";

    public String configure(String encoded) {
        return guard(() -> {
            Codec.Reader r = new Codec.Reader(encoded);
            Map<String, Object> props = new HashMap<>();
            while (r.more()) {
                props.put(r.str(), r.str());
            }
            withPluginMetrics();
            try {
                authorizer.configure(props);
            } catch (IllegalArgumentException | org.apache.kafka.common.config.ConfigException refused) {
                return Codec.errorAs("config-error", refused);
            }
            authorizer.start(new ServerInfo());
            return OK;
        });
    }

    public String loadSnapshot(String encoded) {
        return guard(() -> {
            Codec.Reader r = new Codec.Reader(encoded);
            Map<String, AclBinding> acls = new LinkedHashMap<>();
            while (r.more()) {
                String id = r.str();
                AclBinding acl = r.binding();
                if (acls.put(id, acl) != null) {
                    throw new RuntimeException("An ACL with ID " + id + " appears twice in the snapshot.");
                }
            }
            if (driver.equals("list")) {
                ((ListAuthorizer) authorizer).loadSnapshot(acls);
            } else if (driver.equals("metadata")) {
                Map<Object, Object> converted = new LinkedHashMap<>();
                for (Map.Entry<String, AclBinding> e : acls.entrySet()) {
                    converted.put(uuid(e.getKey()), standardAcl(e.getValue()));
                }
                method("loadSnapshot", 1).invoke(authorizer, converted);
            } else {
                ListAuthorizer check = new ListAuthorizer();
                check.loadSnapshot(acls);  // same id/duplicate rules as the record path
                await(authorizer.deleteAcls(RequestContext.admin(31), List.of(AclBindingFilter.ANY)));
                plainIds.clear();
                await(authorizer.createAcls(RequestContext.admin(30), new ArrayList<>(acls.values())));
                plainIds.putAll(acls);
            }
            return OK;
        });
    }

    public String addAcl(String id, String encoded) {
        return guard(() -> {
            AclBinding acl = new Codec.Reader(encoded).binding();
            if (driver.equals("list")) {
                ((ListAuthorizer) authorizer).addAcl(id, acl);
            } else if (driver.equals("metadata")) {
                method("addAcl", 2).invoke(authorizer, uuid(id), standardAcl(acl));
            } else {
                if (plainIds.containsKey(id)) {
                    throw new RuntimeException("An ACL with ID " + id + " already exists.");
                }
                if (plainIds.containsValue(acl)) {
                    throw new RuntimeException("ACL " + acl + " (id " + id + ") duplicates an existing ACL.");
                }
                await(authorizer.createAcls(RequestContext.admin(30), List.of(acl)));
                plainIds.put(id, acl);
            }
            return OK;
        });
    }

    public String removeAcl(String id) {
        return guard(() -> {
            if (driver.equals("list")) {
                ((ListAuthorizer) authorizer).removeAcl(id);
            } else if (driver.equals("metadata")) {
                method("removeAcl", 1).invoke(authorizer, uuid(id));
            } else {
                AclBinding acl = plainIds.get(id);
                if (acl == null) {
                    throw new RuntimeException("ID " + id + " not found in ACLs.");
                }
                await(authorizer.deleteAcls(RequestContext.admin(31), List.of(acl.toFilter())));
                plainIds.remove(id);
            }
            return OK;
        });
    }

    public String completeInitialLoad() {
        return guard(() -> {
            Method m = findMethod(authorizer.getClass(), "completeInitialLoad", 0);
            if (m != null) {
                m.invoke(authorizer);
            }
            return OK;
        });
    }

    /** One authorize() call: a context, then (op, type, name, pattern) per action. */
    public String authorize(String context, String actions) {
        return guard(() -> answer(new Codec.Reader(context).context(), new Codec.Reader(actions)));
    }

    private String answer(RequestContext ctx, Codec.Reader r) {
        List<Action> batch = new ArrayList<>();
        while (r.more()) {
            batch.add(action(r));
        }
        return results(authorizer.authorize(ctx, batch));
    }

    private static Action action(Codec.Reader r) {
        AclOperation op = AclOperation.fromCode((byte) r.num());
        ResourceType type = ResourceType.fromCode((byte) r.num());
        String name = r.str();
        PatternType pattern = PatternType.fromCode((byte) r.num());
        return new Action(op, new ResourcePattern(type, name, pattern), 1, true, true);
    }

    private static String results(List<AuthorizationResult> results) {
        StringBuilder out = new StringBuilder("+");
        for (AuthorizationResult result : results) {
            out.append(result == AuthorizationResult.ALLOWED ? 'A' : result == AuthorizationResult.DENIED ? 'D' : '?');
        }
        return out.toString();
    }

    public String authorizeByResourceType(String context, int operation, int resourceType) {
        // By reflection: authorizeByResourceType exists from Kafka 2.8 (KIP-679), and the shim compiles against 2.4+.
        return guard(() -> results(List.of((AuthorizationResult) invoke(
            "authorizeByResourceType", new Codec.Reader(context).context(),
            AclOperation.fromCode((byte) operation), ResourceType.fromCode((byte) resourceType)))));
    }

    /** Benchmarks only: up to {@code calls} authorize() calls of one action each, cycling through the
     *  actions, timed inside the JVM (no py4j per call): median and p99 nanoseconds, allowed, calls made. */
    public String timeAuthorize(String context, String actions, int calls) {
        return guard(() -> {
            RequestContext ctx = new Codec.Reader(context).context();
            Codec.Reader r = new Codec.Reader(actions);
            List<List<Action>> batches = new ArrayList<>();
            while (r.more()) {
                batches.add(List.of(action(r)));
            }
            int warm = Math.max(1, calls / 10);
            long warmDeadline = System.nanoTime() + BENCH_BUDGET_NS / 3;
            for (int i = 0; i < warm && (i < 10 || System.nanoTime() < warmDeadline); i++) {
                authorizer.authorize(ctx, batches.get(i % batches.size()));
            }
            long[] samples = new long[calls];
            int allowed = 0;
            int done = 0;
            long deadline = System.nanoTime() + BENCH_BUDGET_NS;
            while (done < calls && (done < 100 || System.nanoTime() < deadline)) {
                long start = System.nanoTime();
                List<AuthorizationResult> out = authorizer.authorize(ctx, batches.get(done % batches.size()));
                samples[done++] = System.nanoTime() - start;
                allowed += out.get(0) == AuthorizationResult.ALLOWED ? 1 : 0;
            }
            return percentiles(java.util.Arrays.copyOf(samples, done)).num(allowed).num(done).toString();
        });
    }

    /** Benchmarks only: {@code calls} authorizeByResourceType() calls, timed inside the JVM. */
    public String timeByType(String context, int operation, int resourceType, int calls) {
        return guard(() -> {
            RequestContext ctx = new Codec.Reader(context).context();
            AclOperation op = AclOperation.fromCode((byte) operation);
            ResourceType type = ResourceType.fromCode((byte) resourceType);
            Object answer = null;
            long warmDeadline = System.nanoTime() + BENCH_BUDGET_NS / 3;
            for (int i = 0; i < Math.max(1, calls / 10) && (i < 2 || System.nanoTime() < warmDeadline); i++) {
                answer = invoke("authorizeByResourceType", ctx, op, type);
            }
            long[] samples = new long[calls];
            int done = 0;
            long deadline = System.nanoTime() + BENCH_BUDGET_NS;
            while (done < calls && (done < 10 || System.nanoTime() < deadline)) {
                long start = System.nanoTime();
                answer = invoke("authorizeByResourceType", ctx, op, type);
                samples[done++] = System.nanoTime() - start;
            }
            return percentiles(java.util.Arrays.copyOf(samples, done)).str(String.valueOf(answer)).num(done).toString();
        });
    }

    /** A timing loop stops after this long (and at least 100 calls), well inside py4j's read timeout. */
    /** Benchmarks only: the time a timed query may take, warm-up (a third of it) apart; py4j's
     *  read timeout (120 s) must never be reached, whatever one call costs at 200k resources. */
    private static final long BENCH_BUDGET_NS = 30_000_000_000L;

    private static Codec.Writer percentiles(long[] samples) {
        long[] sorted = samples.clone();
        java.util.Arrays.sort(sorted);
        long median = sorted[sorted.length / 2];
        long p99 = sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))];
        return new Codec.Writer().str(Long.toString(median)).str(Long.toString(p99));
    }

    public String acls(String filter) {
        return guard(() -> {
            Codec.Writer w = new Codec.Writer();
            for (AclBinding acl : authorizer.acls(new Codec.Reader(filter).filter())) {
                w.binding(acl);
            }
            return w.toString();
        });
    }

    public String aclCount() {
        // By reflection: aclCount exists from Kafka 3.0, and the shim compiles against 2.4+.
        return guard(() -> new Codec.Writer().num((Integer) invoke("aclCount")).toString());
    }

    public String close() {
        return guard(() -> {
            authorizer.close();
            return OK;
        });
    }

    // -- helpers ---------------------------------------------------------------------------
    /** KIP-877 (4.1+): a Monitorable authorizer gets its metrics before use, as the broker's plugin
     *  wrapper does; StandardAuthorizer 4.1+ throws NullPointerException in authorize() without them. */
    private void withPluginMetrics() throws Exception {
        Method with = findMethod(authorizer.getClass(), "withPluginMetrics", 1);
        if (with == null) {
            return;
        }
        Class<?> metrics = Class.forName("org.apache.kafka.common.metrics.Metrics");
        Class<?> impl = Class.forName("org.apache.kafka.common.metrics.internals.PluginMetricsImpl");
        Object pluginMetrics = impl.getConstructor(metrics, Map.class)
            .newInstance(metrics.getConstructor().newInstance(), Map.of("kafka-conformance", "authorizer"));
        with.invoke(authorizer, pluginMetrics);
    }

    private static boolean implementsByName(Class<?> cls, String name) {
        for (Class<?> c = cls; c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                if (i.getName().equals(name) || implementsByName(i, name)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Method findMethod(Class<?> cls, String name, int arity) {
        for (Method m : cls.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == arity) {
                return m;
            }
        }
        return null;
    }

    /** Call a public method this release may not have; its own exceptions come out unwrapped. */
    private Object invoke(String name, Object... args) throws Throwable {
        Method m = findMethod(authorizer.getClass(), name, args.length);
        if (m == null) {
            throw new UnsupportedOperationException(authorizer.getClass().getName() + " (Kafka " + kafkaVersion()
                + ") has no " + name + "()");
        }
        try {
            return m.invoke(authorizer, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private Method method(String name, int arity) {
        Method m = findMethod(authorizer.getClass(), name, arity);
        if (m == null) {
            throw new IllegalStateException(authorizer.getClass().getName() + " has no public " + name + "/" + arity);
        }
        return m;
    }

    /** The kit's record id as a Kafka Uuid: name-based, so the same id always maps the same.
     *  By reflection: org.apache.kafka.common.Uuid exists from 2.8, and the shim compiles against 2.4+. */
    static Object uuid(String id) throws Exception {
        UUID u = UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8));
        return Class.forName("org.apache.kafka.common.Uuid").getConstructor(long.class, long.class)
            .newInstance(u.getMostSignificantBits(), u.getLeastSignificantBits());
    }

    private Object standardAcl(AclBinding acl) throws Exception {
        Class<?> cls = Class.forName("org.apache.kafka.metadata.authorizer.StandardAcl", true, authorizer.getClass().getClassLoader());
        return cls.getMethod("fromAclBinding", AclBinding.class).invoke(null, acl);
    }

    /** Wait for admin-path futures and surface the first per-ACL error. */
    private static void await(List<? extends CompletionStage<?>> futures) throws Exception {
        for (CompletionStage<?> stage : futures) {
            Object result = stage.toCompletableFuture().get(TIMEOUT_S, TimeUnit.SECONDS);
            ApiException error = null;
            if (result instanceof AclCreateResult) {
                error = ((AclCreateResult) result).exception().orElse(null);
            } else if (result instanceof AclDeleteResult) {
                AclDeleteResult deleted = (AclDeleteResult) result;
                error = deleted.exception().orElse(null);
                for (AclDeleteResult.AclBindingDeleteResult one : deleted.aclBindingDeleteResults()) {
                    error = error != null ? error : one.exception().orElse(null);
                }
            }
            if (error instanceof org.apache.kafka.common.errors.InvalidRequestException
                    || (error != null && error.getCause() instanceof IllegalArgumentException)) {
                // Kafka refused the ACL (AclAuthorizer's validation, or ZooKeeper refusing its path,
                // as for an empty resource name): the protocol's invalid-argument
                throw new IllegalArgumentException(error.getMessage(), error);
            }
            if (error != null) {
                throw error;
            }
        }
    }
}
