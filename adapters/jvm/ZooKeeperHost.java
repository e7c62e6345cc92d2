/*
 * kafka-conformance: a ZooKeeper server inside the adapter's JVM, for Kafka's
 * ZooKeeper-backed AclAuthorizer (2.4 to 3.9).
 *
 * It listens on 127.0.0.1 only, on a port the OS picks (no race for a free
 * port), and dies with the JVM; ZooKeeperHost.stop() ends it earlier.  Each
 * hosted authorizer gets a fresh chroot (createPath), so no case sees the ACLs
 * of another, as on a fresh cluster.
 *
 * Everything goes through reflection: the ZooKeeper classes are only on the
 * classpath of AclAuthorizer releases (the kafka_2.13 POM brings them), and the
 * shim compiles against every release's jars.
 */
package kafka_conformance.jvm;

import java.io.File;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

public final class ZooKeeperHost {
    private static final long CONNECT_TIMEOUT_S = 30;
    private final Object server;
    private final Object factory;
    private final Object client;
    private final int port;

    private ZooKeeperHost(Object server, Object factory, Object client, int port) {
        this.server = server;
        this.factory = factory;
        this.client = client;
        this.port = port;
    }

    /** Start a standalone server with its data under {@code dataDir}. */
    public static ZooKeeperHost start(String dataDir) throws Exception {
        System.setProperty("zookeeper.forceSync", "no");  // a test server: no fsync per write
        Class<?> zks = Class.forName("org.apache.zookeeper.server.ZooKeeperServer");
        File dir = new File(dataDir);
        Object server = zks.getConstructor(File.class, File.class, int.class)
            .newInstance(new File(dir, "snapshots"), new File(dir, "log"), 500);
        Class<?> cnxn = Class.forName("org.apache.zookeeper.server.NIOServerCnxnFactory");
        Object factory = cnxn.getConstructor().newInstance();
        cnxn.getMethod("configure", InetSocketAddress.class, int.class)
            .invoke(factory, new InetSocketAddress("127.0.0.1", 0), 0);
        cnxn.getMethod("startup", zks).invoke(factory, server);
        int port = (Integer) cnxn.getMethod("getLocalPort").invoke(factory);
        Class<?> watcher = Class.forName("org.apache.zookeeper.Watcher");
        CountDownLatch connected = new CountDownLatch(1);
        Object onEvent = Proxy.newProxyInstance(watcher.getClassLoader(), new Class<?>[] {watcher}, (proxy, m, args) -> {
            switch (m.getName()) {
                case "process":  // a WatchedEvent: count down once the session is connected
                    if (String.valueOf(args[0].getClass().getMethod("getState").invoke(args[0])).equals("SyncConnected")) {
                        connected.countDown();
                    }
                    return null;
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                default:
                    return "ZooKeeperHost.watcher";
            }
        });
        Object client = Class.forName("org.apache.zookeeper.ZooKeeper")
            .getConstructor(String.class, int.class, watcher)
            .newInstance("127.0.0.1:" + port, 30000, onEvent);
        ZooKeeperHost host = new ZooKeeperHost(server, factory, client, port);
        if (!connected.await(CONNECT_TIMEOUT_S, TimeUnit.SECONDS)) {
            host.stop();
            throw new IllegalStateException("ZooKeeper on 127.0.0.1:" + port + " did not accept a session within "
                + CONNECT_TIMEOUT_S + " s");
        }
        return host;
    }

    public int port() {
        return port;
    }

    /** Create a persistent, world-writable znode (a chroot); its parent must exist. */
    public String createPath(String path) {
        try {
            Class<?> ids = Class.forName("org.apache.zookeeper.ZooDefs$Ids");
            Object open = ids.getField("OPEN_ACL_UNSAFE").get(null);
            Class<?> mode = Class.forName("org.apache.zookeeper.CreateMode");
            Object persistent = mode.getField("PERSISTENT").get(null);
            client.getClass().getMethod("create", String.class, byte[].class, List.class, mode)
                .invoke(client, path, new byte[0], open, persistent);
            return "+";
        } catch (Throwable t) {
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException ? t.getCause() : t;
            return Codec.error(cause);
        }
    }

    public void stop() {
        for (Object[] call : new Object[][] {{client, "close"}, {factory, "shutdown"}, {server, "shutdown"}}) {
            try {
                call[0].getClass().getMethod((String) call[1]).invoke(call[0]);
            } catch (Throwable ignored) {
                // stopping is best effort: the JVM's exit ends the server anyway
            }
        }
    }
}
