package dev.zklock.sample;

import java.nio.file.Path;
import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A running instance of the sample application in this JVM, on a free port, with an HTTP
 * client for it.
 */
final class SampleInstance extends SampleClient implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private SampleInstance(ConfigurableApplicationContext context) {
		super(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
		this.context = context;
	}

	/**
	 * Starts an instance. Arguments are passed as command-line arguments, so that they
	 * override {@code application.yml}.
	 * @param sources configuration classes in addition to {@link SampleApplication}
	 * @param args command-line arguments, such as {@code --server.port=0}
	 * @return the running instance
	 */
	static SampleInstance start(List<Class<?>> sources, String... args) {
		SpringApplicationBuilder builder = new SpringApplicationBuilder(SampleApplication.class)
			.sources(sources.toArray(Class<?>[]::new))
			.bannerMode(Banner.Mode.OFF);
		return new SampleInstance(builder.run(args));
	}

	/**
	 * Starts an instance as its {@code application.yml} configures it, on a free port,
	 * with its embedded ZooKeeper server on a free port, keeping the server's data and
	 * the database in a directory.
	 * @param data the directory of the ZooKeeper data and the database
	 * @return the running instance
	 */
	static SampleInstance startWithDataIn(Path data) {
		return start(List.of(), "--server.port=0", "--distributed-lock.zookeeper.embedded.port=0",
				"--distributed-lock.zookeeper.embedded.data-directory=" + data.resolve("zookeeper"),
				"--spring.datasource.url=jdbc:h2:file:" + data.resolve("orders") + ";AUTO_SERVER=TRUE");
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	@Override
	public void close() {
		this.context.close();
	}

}
