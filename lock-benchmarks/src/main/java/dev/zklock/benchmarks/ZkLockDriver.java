package dev.zklock.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.zklock.LockTemplate;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * zklock in a Spring Boot context configured by properties only, called through the
 * annotation or through {@link LockTemplate}. Extra {@code distributed-lock.*} properties
 * of the variant (such as switching a feature off) go to the context as they are, so any
 * configuration of the library can be measured as a variant of its own.
 */
final class ZkLockDriver implements LockDriver {

	private final ConfigurableApplicationContext context;

	private final LockCall calls;

	private final ZooKeeperWrites writes;

	private ZkLockDriver(ConfigurableApplicationContext context, LockCall calls) {
		this.context = context;
		this.calls = calls;
		this.writes = context.getBean(ZooKeeperWrites.class);
	}

	/**
	 * Calls the annotated method of {@link AnnotatedWork}.
	 * @param connectString the ZooKeeper connect string
	 * @param rootPath the root path of the locks
	 * @param properties further properties of the context
	 * @return the driver
	 */
	static ZkLockDriver annotation(String connectString, String rootPath, Map<String, String> properties) {
		ConfigurableApplicationContext context = start(connectString, rootPath, properties);
		AnnotatedWork work = context.getBean(AnnotatedWork.class);
		return new ZkLockDriver(context, work::run);
	}

	/**
	 * Calls
	 * {@link LockTemplate#execute(String, java.time.Duration, dev.zklock.LockCallback)}.
	 * @param connectString the ZooKeeper connect string
	 * @param rootPath the root path of the locks
	 * @param properties further properties of the context
	 * @return the driver
	 */
	static ZkLockDriver template(String connectString, String rootPath, Map<String, String> properties) {
		ConfigurableApplicationContext context = start(connectString, rootPath, properties);
		LockTemplate template = context.getBean(LockTemplate.class);
		return new ZkLockDriver(context, (key, work) -> template.execute(key, WAIT_TIME, (lock) -> {
			work.run();
			return null;
		}));
	}

	private static ConfigurableApplicationContext start(String connectString, String rootPath,
			Map<String, String> properties) {
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put("spring.main.banner-mode", "off");
		defaults.put("spring.main.log-startup-info", "false");
		defaults.put("distributed-lock.zookeeper.connect-string", connectString);
		defaults.put("distributed-lock.root-path", rootPath);
		defaults.putAll(properties);
		SpringApplication application = new SpringApplication(BenchmarkApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setDefaultProperties(defaults);
		return application.run();
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		this.calls.withLock(key, work);
	}

	@Override
	public long writes() {
		return this.writes.count();
	}

	@Override
	public void close() {
		this.context.close();
	}

	/**
	 * How the driver reaches the lock: through the annotated bean or the template.
	 */
	@FunctionalInterface
	private interface LockCall {

		void withLock(String key, Runnable work) throws Exception;

	}

}
