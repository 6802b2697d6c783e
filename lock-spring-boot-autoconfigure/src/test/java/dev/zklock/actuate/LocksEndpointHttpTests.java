package dev.zklock.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code locks} endpoint over HTTP against a real server whose lock node belongs to
 * other digest credentials: a queue the instance may not read answers 403 with a body
 * that says which node and why; with the server stopped, 503 with the same body.
 */
class LocksEndpointHttpTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	void queueOfANodeThatOtherCredentialsOwnIsForbiddenWithTheNodeAndTheReason() throws Exception {
		try (ConfigurableApplicationContext application = start("locks", "instance-secret")) {
			String path = application.getBean(ZooKeeperLockRegistry.class).pathOf("order:7");
			try (CuratorFramework peer = CuratorFrameworkFactory.builder()
				.connectString(zookeeper.connectString())
				.retryPolicy(new RetryOneTime(100))
				.authorization("digest", "locks:instance-secret".getBytes(StandardCharsets.UTF_8))
				.build()) {
				peer.start();
				Id billing = new Id("digest", DigestAuthenticationProvider.generateDigest("billing:billing-secret"));
				peer.create()
					.withMode(CreateMode.PERSISTENT)
					.withACL(List.of(new ACL(ZooDefs.Perms.ALL, billing)))
					.forPath(path);
				HttpResponse<String> response = get(application, "/actuator/locks/order:7");
				assertThat(response.statusCode()).isEqualTo(403);
				assertThat(response.body()).contains("\"key\":\"order:7\"")
					.contains("\"path\":\"" + path + "\"")
					.contains("\"zooKeeperError\":\"NOAUTH\"")
					.contains("The lock node " + path + " could not be read")
					.contains("the credentials of this instance may not read it");
				assertThat(get(application, "/actuator/locks?key=order:7").statusCode()).isEqualTo(403);
				assertThat(get(application, "/actuator/locks/order:8").statusCode()).isEqualTo(200);
			}
		}
	}

	@Test
	void queueWhileZooKeeperCannotBeReachedIsServiceUnavailableWithTheNodeAndTheReason() throws Exception {
		try (ConfigurableApplicationContext application = start("locks", "instance-secret")) {
			String path = application.getBean(ZooKeeperLockRegistry.class).pathOf("order:9");
			assertThat(get(application, "/actuator/locks/order:9").statusCode()).isEqualTo(200);
			zookeeper.stop();
			try {
				HttpResponse<String> response = get(application, "/actuator/locks/order:9");
				assertThat(response.statusCode()).isEqualTo(503);
				assertThat(response.body()).contains("\"key\":\"order:9\"")
					.contains("\"path\":\"" + path + "\"")
					.contains("\"zooKeeperError\":\"CONNECTIONLOSS\"")
					.contains("The lock node " + path + " could not be read: ZooKeeper cannot be reached");
			}
			finally {
				zookeeper.restart();
			}
		}
	}

	private ConfigurableApplicationContext start(String username, String password) {
		return new SpringApplicationBuilder(HttpApplication.class).web(WebApplicationType.SERVLET)
			.properties("server.port=0", "spring.main.banner-mode=off",
					"management.endpoints.web.exposure.include=locks",
					"distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
					"distributed-lock.root-path=/http-locks",
					"distributed-lock.zookeeper.authentication.username=" + username,
					"distributed-lock.zookeeper.authentication.password=" + password)
			.run();
	}

	private HttpResponse<String> get(ConfigurableApplicationContext application, String path) throws Exception {
		int port = ((WebServerApplicationContext) application).getWebServer().getPort();
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HttpApplication {

	}

}
