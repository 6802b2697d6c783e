package dev.zklock.sample;

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

	ConfigurableApplicationContext context() {
		return this.context;
	}

	@Override
	public void close() {
		this.context.close();
	}

}
