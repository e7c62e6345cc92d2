/*
 * kafka-conformance: Kafka's real filter semantics, in bulk, for comparison
 * with reference/acl/filters.py.  Nothing here decides anything itself: every
 * answer is AclBindingFilter.matches / isUnknown / a constructor of the
 * kafka-clients classes on the classpath.
 */
package kafka_conformance.jvm;

import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

import java.util.ArrayList;
import java.util.List;

public final class FilterCheck {
    private FilterCheck() {
    }

    /**
     * For each filter: one token "<u><m...>" where u is 'U' if isUnknown() else
     * 'K', then per binding 'T' (matches), 'F' (does not) or 'E' (matches()
     * threw).  A binding or filter that cannot be constructed is an error answer.
     */
    public static String matches(String bindings, String filters) {
        try {
            List<AclBinding> acls = new ArrayList<>();
            Codec.Reader r = new Codec.Reader(bindings);
            while (r.more()) {
                acls.add(r.binding());
            }
            Codec.Writer w = new Codec.Writer();
            Codec.Reader f = new Codec.Reader(filters);
            while (f.more()) {
                AclBindingFilter filter = f.filter();
                StringBuilder row = new StringBuilder(acls.size() + 1);
                row.append(filter.isUnknown() ? 'U' : 'K');
                for (AclBinding acl : acls) {
                    char c;
                    try {
                        c = filter.matches(acl) ? 'T' : 'F';
                    } catch (RuntimeException e) {
                        c = 'E';
                    }
                    row.append(c);
                }
                w.str(row.toString());
            }
            return w.toString();
        } catch (Throwable t) {
            return Codec.error(t);
        }
    }

    /** The exception matches() throws for one (binding, filter) pair, as an error answer. */
    public static String explain(String binding, String filter) {
        try {
            AclBinding acl = new Codec.Reader(binding).binding();
            return new Codec.Writer().str(new Codec.Reader(filter).filter().matches(acl) ? "T" : "F").toString();
        } catch (Throwable t) {
            return Codec.error(t);
        }
    }

    /** For each encoded binding: 'Y' if Kafka's constructors accept it, else 'N'. */
    public static String constructible(String bindings) {
        Codec.Reader r = new Codec.Reader(bindings);
        StringBuilder out = new StringBuilder("+");
        while (r.more()) {
            // Read all seven tokens first so a rejected one does not desynchronise the reader.
            String[] t = new String[7];
            for (int i = 0; i < 7; i++) {
                t[i] = r.str();
            }
            String encoded = new Codec.Writer().str(t[0]).str(t[1]).str(t[2]).str(t[3]).str(t[4]).str(t[5]).str(t[6])
                .toString().substring(1);
            try {
                new Codec.Reader(encoded).binding();
                out.append('Y');
            } catch (IllegalArgumentException e) {
                out.append('N');
            }
        }
        return out.toString();
    }
}
