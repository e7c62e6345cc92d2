package com.example;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * Kafka's StandardAuthorizer with a cache of its answers in front, the kind of speed-up
 * teams add when authorization shows up in a profile.
 *
 * It has a bug, on purpose, to show what kafka-conformance reports: nothing empties
 * the cache when ACLs change, so an answer given before an ACL was added (or removed)
 * is given again after it. README.md shows the fix.
 */
public class CachingAuthorizer extends StandardAuthorizer {
    private final Map<String, AuthorizationResult> answers = new ConcurrentHashMap<>();

    @Override
    public List<AuthorizationResult> authorize(AuthorizableRequestContext context, List<Action> actions) {
        List<AuthorizationResult> results = new ArrayList<>(actions.size());
        for (Action action : actions) {
            String key = context.principal() + "|" + context.clientAddress() + "|" + action.operation() + "|"
                + action.resourcePattern();
            // The bug: the key is complete, but no ACL change ever removes an entry.
            results.add(answers.computeIfAbsent(key, k -> super.authorize(context, List.of(action)).get(0)));
        }
        return results;
    }
}
