package dev.zklock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.example.orders.OrderService;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperProperties;
import dev.zklock.jdbc.JdbcLockFence;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.LockActivity;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The complete example of the README's "Use it" section and of the guide's "Getting
 * started": its class is {@link OrderService} as it stands (the README shows it whole,
 * the guide includes it), compiled with the tests, and it locks as both say. Their
 * properties set what they say, and the table of the JDBC fence that the guide shows is
 * the one the fence creates.
 */
class ReadmeExampleTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static final Path EXAMPLE = Path.of("src", "test", "java", "com", "example", "orders", "OrderService.java");

	@Test
	void readmeShowsTheExampleClassWhole() throws IOException {
		assertThat(useItSection()).contains("```java\n" + Files.readString(EXAMPLE) + "```\n");
	}

	@Test
	void guideIncludesTheExampleClassWhole() throws IOException {
		assertThat(guidePage("getting-started.adoc")).contains(
				"[source,java]\n----\ninclude::example$autoconfigure/com/example/orders/OrderService.java[]\n----\n");
	}

	@Test
	void guideShowsTheFenceTableAsTheFenceCreatesIt() throws IOException {
		String statement = new JdbcLockFence(new JdbcDataSource()).createTableStatement();
		assertThat(guidePage("fencing.adoc")).contains("[source,sql]\n----\n" + statement + ";\n----\n");
	}

	@Test
	void readmePropertiesSetTheConnectString() throws IOException {
		String section = useItSection();
		int start = section.indexOf("```yaml\n") + "```yaml\n".length();
		String yaml = section.substring(start, section.indexOf("```", start));
		List<PropertySource<?>> sources = new YamlPropertySourceLoader().load("README.md",
				new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)));
		assertThat(zooKeeperProperties(sources).getConnectString()).isEqualTo("zk1:2181,zk2:2181,zk3:2181");
	}

	@Test
	void guidePropertiesSetTheConnectStringOrTheEmbeddedServer() throws IOException {
		assertThat(guidePage("getting-started.adoc"))
			.contains("include::example$autoconfigure-resources/samples/connect-string.yml[tag=connect-string]")
			.contains("include::example$autoconfigure-resources/samples/embedded.properties[tag=embedded]");
		List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load("connect-string.yml",
				new ClassPathResource("samples/connect-string.yml"));
		assertThat(zooKeeperProperties(yaml).getConnectString()).isEqualTo("zk1:2181,zk2:2181,zk3:2181");
		List<PropertySource<?>> properties = new PropertiesPropertySourceLoader().load("embedded.properties",
				new ClassPathResource("samples/embedded.properties"));
		assertThat(zooKeeperProperties(properties).getEmbedded().isEnabled()).isTrue();
	}

	private static ZooKeeperProperties zooKeeperProperties(List<PropertySource<?>> sources) {
		return new Binder(ConfigurationPropertySources.from(sources))
			.bind("distributed-lock.zookeeper", ZooKeeperProperties.class)
			.get();
	}

	private static String guidePage(String name) throws IOException {
		return Files.readString(Path.of("..", "docs", "modules", "ROOT", "pages", name));
	}

	@Test
	void annotatedMethodAndTemplateLockTheOrder() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		LockApplications.connectedTo(zookeeper).withUserConfiguration(OrderService.class).run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			assertThat(orders.pay("42")).isEqualTo("paid 42");
			assertThat(orders.refund("42")).startsWith("refunded 42 with fencing token ");
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			AcquiredLock elsewhere = otherInstance.acquire("order:42", Duration.ofSeconds(10));
			CompletableFuture<String> payment = CompletableFuture.supplyAsync(() -> orders.pay("42"));
			await().until(() -> registry.waitingLocks().stream().map(LockActivity::key).toList(),
					(keys) -> keys.contains("order:42"));
			assertThat(payment).isNotDone();
			elsewhere.release();
			assertThat(payment).succeedsWithin(Duration.ofSeconds(3)).isEqualTo("paid 42");
		});
	}

	private static String useItSection() throws IOException {
		String readme = Files.readString(Path.of("..", "README.md"));
		int start = readme.indexOf("\n## Use it\n");
		assertThat(start).as("README's Use it section").isNotNegative();
		return readme.substring(start, readme.indexOf("\n## ", start + 1));
	}

}
