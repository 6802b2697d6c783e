package dev.zklock.test;

import java.util.Map;

import dev.zklock.zookeeper.ZooKeeperLockRegistry;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Starts the server of an {@link EmbeddedLockServer} test's application context before
 * the context refreshes: gives the application its connect string (and turns off an
 * embedded server that the application's configuration enables), the context an
 * {@link OtherProcess} bean, and {@link LockAssertions} the context's locks; the server
 * stops when the context closes, after every bean of the application.
 */
final class EmbeddedLockServerContextCustomizer implements ContextCustomizer {

	static final String CONNECT_STRING_PROPERTY = "distributed-lock.zookeeper.connect-string";

	static final String EMBEDDED_ENABLED_PROPERTY = "distributed-lock.zookeeper.embedded.enabled";

	private static final String SERVER_BEAN_NAME = "embeddedLockServer";

	private static final String OTHER_PROCESS_BEAN_NAME = "embeddedLockServerOtherProcess";

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		if (!(beanFactory instanceof DefaultSingletonBeanRegistry singletons)
				|| !(context instanceof BeanDefinitionRegistry definitions)) {
			throw new IllegalStateException("@EmbeddedLockServer needs an application context whose bean factory "
					+ "registers beans and their destruction, as Spring Boot's do, but got " + context.getClass());
		}
		InProcessZooKeeperServer server = new InProcessZooKeeperServer();
		// registered before any bean of the application, so destroyed after all of them:
		// the application's ZooKeeper clients close while the server still answers
		beanFactory.registerSingleton(SERVER_BEAN_NAME, server);
		singletons.registerDisposableBean(SERVER_BEAN_NAME, server);
		String connectString = server.connectString();
		// first of all property sources: the test's server wins over the application's
		// configuration, an embedded server of its own (as for development) included
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource(SERVER_BEAN_NAME,
					Map.of(CONNECT_STRING_PROPERTY, connectString, EMBEDDED_ENABLED_PROPERTY, "false")));
		beanFactory.addBeanPostProcessor(new LockRecordingPostProcessor());
		definitions.registerBeanDefinition(OTHER_PROCESS_BEAN_NAME, otherProcess(beanFactory, connectString));
	}

	private static BeanDefinition otherProcess(ConfigurableListableBeanFactory beanFactory, String connectString) {
		RootBeanDefinition definition = new RootBeanDefinition(OtherProcess.class, () -> OtherProcess
			.connect(connectString, beanFactory.getBean(ZooKeeperLockRegistry.class).getRootPath()));
		// connects only for a test that asks for it
		definition.setLazyInit(true);
		definition.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
		return definition;
	}

	@Override
	public boolean equals(Object other) {
		return other != null && other.getClass() == getClass();
	}

	@Override
	public int hashCode() {
		return getClass().hashCode();
	}

}
