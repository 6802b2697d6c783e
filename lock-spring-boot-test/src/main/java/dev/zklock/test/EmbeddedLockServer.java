package dev.zklock.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Starts a real ZooKeeper server in the test's JVM for the application context of a
 * {@code @SpringBootTest} class, and points the application's locks at it.
 *
 * <pre class="code">
 * &#064;SpringBootTest
 * &#064;EmbeddedLockServer
 * class OrderServiceTests {
 *
 *     &#064;Autowired
 *     OrderService orders;
 *
 *     &#064;Autowired
 *     OtherProcess otherProcess;
 *
 *     &#064;Test
 *     void paysUnderTheOrdersLock() {
 *         LockAssertions.assertThatCall(() -&gt; orders.pay("42")).ranUnderLock("order:42");
 *     }
 *
 * }
 * </pre>
 *
 * The server listens on 127.0.0.1 and a free port, keeps its data in a temporary
 * directory, and lives as long as the application context: test classes whose contexts
 * Spring's test framework shares (the same configuration) share the server too, and it
 * stops, its data deleted, when the context closes, after the application's beans. The
 * application gets {@code distributed-lock.zookeeper.connect-string}, over any value the
 * test or the application sets, and
 * {@code distributed-lock.zookeeper.embedded.enabled=false}: an application whose
 * configuration starts an embedded server for development locks on the test's server
 * instead, the one that {@link OtherProcess} uses.
 * <p>
 * The context gets an {@link OtherProcess} bean as well: a client with a session of its
 * own that holds the application's keys as another instance of it would. And
 * {@link LockAssertions} see the locks of the context's application.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface EmbeddedLockServer {

}
