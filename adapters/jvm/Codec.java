/*
 * kafka-conformance: the wire format between Python and the JVM shim.
 *
 * Why a string format: every py4j call is a socket round trip (~0.5 ms), and
 * py4j converts Python lists element by element.  One string per call, with
 * length-prefixed tokens, carries a whole batch in one round trip and survives
 * any character (names may hold ':', '*', newlines or non-BMP characters).
 *
 * Token: "<n>:<n code points>" for a string, "~" for null.  Enums travel as
 * their Kafka wire codes.  Answers start with '+' (success, then tokens) or
 * '!' followed by three tokens: error kind, Java class name, message.
 */
package kafka_conformance.jvm;

import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

public final class Codec {
    private Codec() {
    }

    /** Raised when a kit value has no faithful Java form (e.g. host "::1"). */
    public static final class Unrepresentable extends RuntimeException {
        public Unrepresentable(String message) {
            super(message);
        }
    }

    /** Sequential reader over one encoded message. */
    public static final class Reader {
        private final String text;
        private int at;

        public Reader(String text) {
            this.text = text;
        }

        public boolean more() {
            return at < text.length();
        }

        public String str() {
            if (text.charAt(at) == '~') {
                at++;
                return null;
            }
            int colon = text.indexOf(':', at);
            int count = Integer.parseInt(text.substring(at, colon));
            int end = text.offsetByCodePoints(colon + 1, count);
            String value = text.substring(colon + 1, end);
            at = end;
            return value;
        }

        public int num() {
            return Integer.parseInt(str());
        }

        public AclBinding binding() {
            ResourcePattern pattern = new ResourcePattern(
                ResourceType.fromCode((byte) num()), str(), PatternType.fromCode((byte) num()));
            AccessControlEntry entry = new AccessControlEntry(
                str(), str(), AclOperation.fromCode((byte) num()), AclPermissionType.fromCode((byte) num()));
            return new AclBinding(pattern, entry);
        }

        public AclBindingFilter filter() {
            ResourcePatternFilter pattern = new ResourcePatternFilter(
                ResourceType.fromCode((byte) num()), str(), PatternType.fromCode((byte) num()));
            AccessControlEntryFilter entry = new AccessControlEntryFilter(
                str(), str(), AclOperation.fromCode((byte) num()), AclPermissionType.fromCode((byte) num()));
            return new AclBindingFilter(pattern, entry);
        }

        /** A request context: principal type, principal name, host. */
        public RequestContext context() {
            return new RequestContext(new KafkaPrincipal(str(), str()), address(str()), 3);
        }
    }

    /** Builds an answer: '+' then tokens. */
    public static final class Writer {
        private final StringBuilder out = new StringBuilder("+");

        public Writer str(String value) {
            if (value == null) {
                out.append('~');
            } else {
                out.append(value.codePointCount(0, value.length())).append(':').append(value);
            }
            return this;
        }

        public Writer num(int value) {
            return str(Integer.toString(value));
        }

        public Writer raw(char c) {
            out.append(c);
            return this;
        }

        public Writer binding(AclBinding b) {
            num(b.pattern().resourceType().code()).str(b.pattern().name()).num(b.pattern().patternType().code());
            return str(b.entry().principal()).str(b.entry().host())
                .num(b.entry().operation().code()).num(b.entry().permissionType().code());
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }

    /**
     * The client address whose getHostAddress() is exactly {@code host}.  Only
     * numeric literals are accepted (no DNS lookup ever happens), and only when
     * Java renders them back unchanged: "::1" renders as "0:0:0:0:0:0:0:1", so
     * a context with host "::1" cannot exist in a real broker.
     */
    public static InetAddress address(String host) {
        if (host.isEmpty() || !host.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')) {
            throw new Unrepresentable("client host '" + host + "' is not a numeric address literal");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (Exception e) {
            throw new Unrepresentable("client host '" + host + "' is not an address: " + e);
        }
        if (!address.getHostAddress().equals(host)) {
            throw new Unrepresentable("client host '" + host + "' renders as '" + address.getHostAddress()
                + "' in Java (InetAddress.getHostAddress), so no Kafka request can carry it");
        }
        return address;
    }

    /** Encode a Throwable as an error answer; the kind is the kit's stable error name. */
    public static String error(Throwable thrown) {
        Throwable t = unwrap(thrown);
        return errorAs(kind(t), t);
    }

    /** An error answer of a given kind: configure() refusals are config-error whatever Kafka throws
     *  (IllegalArgumentException or ConfigException), as the protocol defines the kind. */
    public static String errorAs(String kind, Throwable thrown) {
        Throwable t = unwrap(thrown);
        Writer w = new Writer();
        w.out.setCharAt(0, '!');
        return w.str(kind).str(t.getClass().getName()).str(String.valueOf(t.getMessage())).toString();
    }

    private static Throwable unwrap(Throwable thrown) {
        Throwable t = thrown;
        while ((t instanceof InvocationTargetException || t instanceof CompletionException
                || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The release of the kafka-clients on the classpath, read as AppInfoParser reads it (the class
     *  moved to utils.internals in 4.4, and the shim compiles against 2.4+). */
    static String kafkaVersion() {
        try (java.io.InputStream in = Codec.class.getClassLoader().getResourceAsStream("kafka/kafka-version.properties")) {
            java.util.Properties props = new java.util.Properties();
            if (in != null) {
                props.load(in);
            }
            return props.getProperty("version", "unknown");
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static volatile java.lang.reflect.Method parsePrincipal;

    /** SecurityUtils.parseKafkaPrincipal, wherever the release keeps it (utils, or utils.internals from 4.4). */
    static Object parsePrincipal(String text) {
        java.lang.reflect.Method m = parsePrincipal;
        if (m == null) {
            for (String name : new String[] {"org.apache.kafka.common.utils.SecurityUtils",
                                             "org.apache.kafka.common.utils.internals.SecurityUtils"}) {
                try {
                    m = Class.forName(name).getMethod("parseKafkaPrincipal", String.class);
                    break;
                } catch (ReflectiveOperationException e) {
                    // not in this release's place: try the next
                }
            }
            if (m == null) {
                throw new IllegalStateException("no SecurityUtils.parseKafkaPrincipal in this kafka-clients");
            }
            parsePrincipal = m;
        }
        try {
            return m.invoke(null, text);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException ? (RuntimeException) cause : new IllegalArgumentException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** By name: the class exists from Kafka 3.3 (KAFKA-13649), and the shim compiles against 2.4+. */
    static final String NOT_READY = "org.apache.kafka.common.errors.AuthorizerNotReadyException";

    /** A new AuthorizerNotReadyException where the release has one (ListAuthorizer runs on 4.3.0). */
    static RuntimeException notReady() {
        try {
            return (RuntimeException) Class.forName(NOT_READY).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            return new IllegalStateException("authorizer not ready");
        }
    }

    private static String kind(Throwable t) {
        if (t instanceof Unrepresentable) {
            return "unrepresentable";
        }
        if (t.getClass().getName().equals(NOT_READY)) {
            return "not-ready";
        }
        if (t instanceof ConfigException) {
            return "config-error";
        }
        if (t instanceof IllegalArgumentException) {
            return "invalid-argument";
        }
        if (t instanceof IllegalStateException || t.getClass() == RuntimeException.class) {
            return "illegal-state";
        }
        return "";
    }
}
