package dev.zklock.web;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A web application on a real server whose controller calls a {@code @DistributedLock}
 * method with a zero wait, against a real ZooKeeper server, with the problem details of
 * lock failures turned on by the guide's sample properties: a key that another session
 * holds answers 409 and a stopped server 503, as problem details that name the lock; the
 * application's messages replace the title and detail; without the property the failure
 * is the server error it was; and an advice of the application answers before zklock's.
 * Each subclass is one web stack, whose application has a controller at {@code POST
 * /orders/{orderId}/payment} over a method locked on {@code 'order:' +
 * #orderId}.
 */
abstract class AbstractLockProblemDetailsTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final WebApplicationType webApplicationType;

	private final Class<?> application;

	AbstractLockProblemDetailsTests(WebApplicationType webApplicationType, Class<?> application) {
		this.webApplicationType = webApplicationType;
		this.application = application;
	}

	@Test
	void aLockThatAnotherHolderKeepsIsAConflictProblemNamingTheLock() throws Exception {
		try (ConfigurableApplicationContext application = start(List.of(), enabled());
				HeldElsewhere held = holdElsewhere("order:42")) {
			pay(application, "42").expectStatus()
				.isEqualTo(HttpStatus.CONFLICT)
				.expectHeader()
				.contentType(MediaType.APPLICATION_PROBLEM_JSON)
				.expectBody()
				.json("""
						{
						  "title": "Conflict",
						  "status": 409,
						  "detail": "Lock 'order:42' was not acquired within 0ms: another holder kept it",
						  "instance": "/orders/42/payment"
						}""", JsonCompareMode.STRICT);
		}
	}

	@Test
	void aLongKeyIsAbbreviatedAsInTheExceptionsMessage() throws Exception {
		String orderId = "7".repeat(300);
		String key = "order:" + orderId;
		try (ConfigurableApplicationContext application = start(List.of(), enabled());
				HeldElsewhere held = holdElsewhere(key)) {
			byte[] body = pay(application, orderId).expectStatus()
				.isEqualTo(HttpStatus.CONFLICT)
				.expectBody()
				.jsonPath("$.detail")
				.isEqualTo("Lock '" + AbbreviatedKey.of(key) + "' was not acquired within 0ms: another holder kept it")
				.returnResult()
				.getResponseBody();
			assertThat(new String(body)).doesNotContain(key.substring(0, AbbreviatedKey.MAX_LENGTH + 1));
		}
	}

	@Test
	void aLockWhileZooKeeperIsDownIsServiceUnavailable() throws Exception {
		try (ConfigurableApplicationContext application = start(List.of(), enabled())) {
			CuratorFramework curator = application.getBean(CuratorFramework.class);
			zookeeper.stop();
			try {
				await().atMost(Duration.ofSeconds(20)).until(() -> !curator.getZookeeperClient().isConnected());
				pay(application, "7").expectStatus()
					.isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
					.expectHeader()
					.contentType(MediaType.APPLICATION_PROBLEM_JSON)
					.expectBody()
					.json("""
							{
							  "title": "Service Unavailable",
							  "status": 503,
							  "detail": "Lock 'order:7' could not be acquired: the lock service is unavailable",
							  "instance": "/orders/7/payment"
							}""", JsonCompareMode.STRICT);
			}
			finally {
				zookeeper.restart();
			}
		}
	}

	@Test
	void theApplicationsMessagesReplaceTheTitleAndTheDetail() throws Exception {
		List<String> properties = new ArrayList<>(enabled());
		properties.add("spring.messages.basename=samples/problem-details-messages");
		try (ConfigurableApplicationContext application = start(List.of(), properties);
				HeldElsewhere held = holdElsewhere("order:43")) {
			pay(application, "43").expectStatus()
				.isEqualTo(HttpStatus.CONFLICT)
				.expectBody()
				.jsonPath("$.title")
				.isEqualTo("Order busy")
				.jsonPath("$.detail")
				.isEqualTo("Another request works on order:43: try again in a moment.");
		}
	}

	@Test
	void withoutThePropertyALockFailureIsTheServerErrorItWas() throws Exception {
		try (ConfigurableApplicationContext application = start(List.of(), List.of());
				HeldElsewhere held = holdElsewhere("order:44")) {
			assertThat(application.getBeansOfType(LockProblemDetailsExceptionHandler.class)).isEmpty();
			pay(application, "44").expectStatus()
				.isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR)
				.expectHeader()
				.contentType(MediaType.APPLICATION_JSON)
				.expectBody()
				.jsonPath("$.status")
				.isEqualTo(500);
		}
	}

	@Test
	void theApplicationsOwnAdviceAnswersBeforeZklocks() throws Exception {
		try (ConfigurableApplicationContext application = start(List.of(OwnAdvice.class), enabled());
				HeldElsewhere held = holdElsewhere("order:45")) {
			assertThat(application.getBeansOfType(LockProblemDetailsExceptionHandler.class)).hasSize(1);
			pay(application, "45").expectStatus()
				.isEqualTo(HttpStatus.TOO_MANY_REQUESTS)
				.expectBody(String.class)
				.isEqualTo("busy: order:45");
		}
	}

	private ConfigurableApplicationContext start(List<Class<?>> more, List<String> properties) {
		List<Class<?>> sources = new ArrayList<>(more);
		sources.add(0, this.application);
		return new SpringApplicationBuilder(sources.toArray(Class<?>[]::new)).web(this.webApplicationType)
			.properties("server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off",
					"distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
					"distributed-lock.startup.connection-wait=" + LockApplications.CONNECTION_WAIT)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	private static List<String> enabled() throws IOException {
		Properties sample = PropertiesLoaderUtils
			.loadProperties(new ClassPathResource("samples/problem-details.properties"));
		return sample.stringPropertyNames().stream().map((name) -> name + "=" + sample.getProperty(name)).toList();
	}

	private static WebTestClient.ResponseSpec pay(ConfigurableApplicationContext application, String orderId) {
		int port = ((WebServerApplicationContext) application).getWebServer().getPort();
		return WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + port)
			.build()
			.post()
			.uri("/orders/{orderId}/payment", orderId)
			.exchange();
	}

	private static HeldElsewhere holdElsewhere(String key) throws Exception {
		return new HeldElsewhere(
				new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks").acquire(key, Duration.ofSeconds(10)));
	}

	/**
	 * A lock held by another session, as another instance of the application would.
	 */
	private record HeldElsewhere(AcquiredLock lock) implements AutoCloseable {

		@Override
		public void close() {
			this.lock.release();
		}

	}

	@RestControllerAdvice
	static class OwnAdvice {

		@ExceptionHandler
		ResponseEntity<String> busy(LockTimeoutException ex) {
			return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).body("busy: " + ex.getKey());
		}

	}

}
