/*
 * kafka-conformance: Apache Kafka's own KafkaProducer, driven by JSON lines.
 *
 * Why a plain subprocess and not py4j: a producer's completions arrive on its
 * I/O thread, and the harness needs them as they happen, stamped on its own
 * clock; one line per completion on stdout does that without a gateway, and a
 * harness that dies closes stdin, which ends this process.
 *
 * In (stdin), one JSON object per line:
 *   {"op":"open","props":{"name":"value",...}}   first line: construct the producer
 *   {"op":"send","id":"v0","topic":"t","partition":0,"value":"v0"}
 *   {"op":"flush"}                                 flush() on a thread of its own
 *   {"op":"txn","action":"init|begin|commit|abort"} a transactional producer's call, on this thread
 *   {"op":"close","timeout_ms":1000}               close(timeout), then exit
 * Out (stdout), one JSON object per line:
 *   {"event":"ready"} | {"event":"config-error",...} | {"event":"start-error",...}
 *   {"event":"acked","id":..,"offset":n}            offset -1 when !hasOffset()
 *   {"event":"error","id":..,"sync":b,"class":..,"message":..,"code":n}
 *     sync: the send never reached the accumulator (send() threw, or completed
 *     the callback on the calling thread before returning); code: the Kafka
 *     error code Errors.forException gives for the exception.
 *   {"event":"txn","action":..,"ok":true}
 *   {"event":"txn","action":..,"ok":false,"class":..,"message":..,"code":n,"fatal":b}
 *     fatal: the producer cannot go on (the exceptions KafkaProducer's documentation says to
 *     close on: fenced, out of order, not authorized, unsupported); otherwise the transaction
 *     can be aborted.
 *   {"event":"flushed"} | {"event":"closed"} | {"event":"bad-command",...}
 */
package kafka_conformance.jvm;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

public final class ProducerRunner {
    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
            StandardCharsets.UTF_8);

    private ProducerRunner() {
    }

    public static void main(String[] args) throws Exception {
        // Kafka's own logging (slf4j without a provider) must never reach the protocol stream.
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String first = in.readLine();
        if (first == null) {
            System.exit(0);
        }
        KafkaProducer<String, String> producer;
        try {
            Map<String, Object> open = new Json(first).object();
            producer = open(asMap(open.get("props")));
        } catch (ConfigException | IllegalArgumentException e) {
            emit(failure("config-error", null, e));
            System.exit(0);
            return;
        } catch (Exception e) {
            emit(failure("start-error", null, e));
            System.exit(0);
            return;
        }
        emit(obj("event", "ready"));
        long closeMs = 0;
        String line;
        while ((line = in.readLine()) != null) {
            Map<String, Object> cmd;
            try {
                cmd = new Json(line).object();
            } catch (IllegalArgumentException e) {
                emit(obj("event", "bad-command", "message", e.getMessage()));
                continue;
            }
            Object op = cmd.get("op");
            if ("send".equals(op)) {
                send(producer, cmd);
            } else if ("flush".equals(op)) {
                Thread t = new Thread(() -> {
                    producer.flush();
                    emit(obj("event", "flushed"));
                }, "kafka-conformance-flush");
                t.setDaemon(true);
                t.start();
            } else if ("txn".equals(op)) {
                txn(producer, String.valueOf(cmd.get("action")));
            } else if ("close".equals(op)) {
                Object ms = cmd.get("timeout_ms");
                closeMs = ms instanceof Long ? (Long) ms : 0L;
                break;
            } else {
                emit(obj("event", "bad-command", "message", "unknown op " + op));
            }
        }
        try {
            producer.close(Duration.ofMillis(closeMs));
        } finally {
            emit(obj("event", "closed"));
            OUT.flush();
            System.exit(0);
        }
    }

    private static KafkaProducer<String, String> open(Map<String, Object> props) {
        Properties p = new Properties();
        for (Map.Entry<String, Object> e : props.entrySet()) {
            if (!ProducerConfig.configNames().contains(e.getKey())) {
                throw new ConfigException(e.getKey(), e.getValue(), "not a producer property of this kafka-clients");
            }
            p.put(e.getKey(), String.valueOf(e.getValue()));
        }
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static void txn(KafkaProducer<String, String> producer, String action) {
        try {
            switch (action) {
                case "init": producer.initTransactions(); break;
                case "begin": producer.beginTransaction(); break;
                case "commit": producer.commitTransaction(); break;
                case "abort": producer.abortTransaction(); break;
                default:
                    emit(obj("event", "bad-command", "message", "unknown txn action " + action));
                    return;
            }
            emit(obj("event", "txn", "action", action, "ok", Boolean.TRUE));
        } catch (Exception e) {
            Map<String, Object> out = failure("txn", null, e);
            out.put("action", action);
            out.put("ok", Boolean.FALSE);
            out.put("fatal", e instanceof org.apache.kafka.common.errors.ProducerFencedException
                    || e instanceof org.apache.kafka.common.errors.OutOfOrderSequenceException
                    || e instanceof org.apache.kafka.common.errors.AuthorizationException
                    || e instanceof org.apache.kafka.common.errors.UnsupportedVersionException
                    || e instanceof IllegalStateException);
            emit(out);
        }
    }

    private static void send(KafkaProducer<String, String> producer, Map<String, Object> cmd) {
        final String id = String.valueOf(cmd.get("id"));
        final Thread caller = Thread.currentThread();
        final boolean[] returned = {false};
        Object partition = cmd.get("partition");
        ProducerRecord<String, String> record = new ProducerRecord<>(String.valueOf(cmd.get("topic")),
                partition instanceof Long ? Integer.valueOf(((Long) partition).intValue()) : null, null,
                String.valueOf(cmd.get("value")));
        try {
            producer.send(record, (metadata, exception) -> {
                if (exception == null) {
                    emit(obj("event", "acked", "id", id, "offset", metadata.hasOffset() ? metadata.offset() : -1L));
                } else {
                    boolean sync;
                    synchronized (returned) {
                        sync = Thread.currentThread() == caller && !returned[0];
                    }
                    Map<String, Object> out = failure("error", id, exception);
                    out.put("sync", sync);
                    emit(out);
                }
            });
        } catch (Exception e) {
            Map<String, Object> out = failure("error", id, e);
            out.put("sync", true);
            emit(out);
        } finally {
            synchronized (returned) {
                returned[0] = true;
            }
        }
    }

    private static Map<String, Object> failure(String event, String id, Throwable e) {
        Map<String, Object> out = obj("event", event, "class", e.getClass().getName(), "message", String.valueOf(e.getMessage()));
        if (id != null) {
            out.put("id", id);
        }
        out.put("code", (long) Errors.forException(e).code());
        if (e.getCause() != null) {
            out.put("cause", e.getCause().getClass().getName() + ": " + e.getCause().getMessage());
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("the open command needs a props object");
        }
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> obj(Object... kv) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            out.put((String) kv[i], kv[i + 1]);
        }
        return out;
    }

    private static void emit(Map<String, Object> fields) {
        StringBuilder sb = new StringBuilder("{");
        boolean firstField = true;
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (!firstField) {
                sb.append(',');
            }
            firstField = false;
            quote(sb, e.getKey());
            sb.append(':');
            Object v = e.getValue();
            if (v == null) {
                sb.append("null");
            } else if (v instanceof Long || v instanceof Boolean) {
                sb.append(v);
            } else {
                quote(sb, String.valueOf(v));
            }
        }
        sb.append('}');
        synchronized (OUT) {
            OUT.println(sb);
        }
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    /** A reader for the JSON the harness writes: objects, strings, integers, booleans, null. */
    static final class Json {
        private final String text;
        private int at;

        Json(String text) {
            this.text = text;
        }

        Map<String, Object> object() {
            Object v = value();
            skip();
            if (!(v instanceof Map) || at != text.length()) {
                throw new IllegalArgumentException("expected one JSON object per line, got: " + text);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) v;
            return m;
        }

        private void skip() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private char peek() {
            skip();
            if (at >= text.length()) {
                throw new IllegalArgumentException("truncated JSON: " + text);
            }
            return text.charAt(at);
        }

        private Object value() {
            char c = peek();
            if (c == '{') {
                at++;
                Map<String, Object> m = new LinkedHashMap<>();
                if (peek() == '}') {
                    at++;
                    return m;
                }
                while (true) {
                    if (peek() != '"') {
                        throw new IllegalArgumentException("expected a key at " + at + ": " + text);
                    }
                    String key = string();
                    if (peek() != ':') {
                        throw new IllegalArgumentException("expected ':' at " + at + ": " + text);
                    }
                    at++;
                    m.put(key, value());
                    char n = peek();
                    at++;
                    if (n == '}') {
                        return m;
                    }
                    if (n != ',') {
                        throw new IllegalArgumentException("expected ',' or '}' at " + (at - 1) + ": " + text);
                    }
                }
            }
            if (c == '"') {
                return string();
            }
            for (String word : new String[] {"null", "true", "false"}) {
                if (text.startsWith(word, at)) {
                    at += word.length();
                    return "null".equals(word) ? null : Boolean.valueOf(word);
                }
            }
            int start = at;
            if (c == '-') {
                at++;
            }
            while (at < text.length() && Character.isDigit(text.charAt(at))) {
                at++;
            }
            if (start == at || (c == '-' && start + 1 == at)) {
                throw new IllegalArgumentException("unexpected character at " + start + ": " + text);
            }
            return Long.parseLong(text.substring(start, at));
        }

        private String string() {
            at++; // opening quote
            StringBuilder sb = new StringBuilder();
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (at >= text.length()) {
                    break;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case 'n': sb.append('\n'); break;
                    case 't': sb.append('\t'); break;
                    case 'r': sb.append('\r'); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'u':
                        sb.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                        break;
                    default: sb.append(e);
                }
            }
            throw new IllegalArgumentException("unterminated string: " + text);
        }
    }
}
