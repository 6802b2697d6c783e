package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import org.apache.zookeeper.ClientCnxnSocketNIO;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring's ahead-of-time processing of an application with a {@link DistributedLock}
 * bean: the proxy class is generated at build time, as a native image needs, and the
 * hints of the bean and of zklock are registered.
 */
class DistributedLockAheadOfTimeTests {

	/**
	 * Generated once: CGLIB keeps the proxy classes it generated, and does not hand them
	 * to a second processing in the same JVM.
	 */
	private static final TestGenerationContext generation = new TestGenerationContext();

	@BeforeAll
	static void processAheadOfTime() {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.registerBean(DistributedLockAnnotationBeanPostProcessor.class,
					(definition) -> definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE));
			context.registerBean(Reports.class);
			new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
		}
		generation.writeGeneratedContent();
	}

	@Test
	void proxyClassOfTheLockedBeanIsGenerated() {
		assertThat(generation.getGeneratedFiles().getGeneratedFiles(Kind.CLASS))
			.containsKey(Reports.class.getName().replace('.', '/') + "$$SpringCGLIB$$0.class");
	}

	@Test
	void lockedMethodCanBeInvoked() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Reports.class.getMethod("nightly", String.class)))
			.accepts(generation.getRuntimeHints());
	}

	@Test
	void hintsOfZkLockAreRegistered() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(ClientCnxnSocketNIO.class.getDeclaredConstructor(ZKClientConfig.class)))
			.accepts(generation.getRuntimeHints());
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LockExpressionRoot.class, "getMethodName"))
			.accepts(generation.getRuntimeHints());
	}

	static class Reports {

		@DistributedLock(key = "#root.methodName + ':' + #day")
		public String nightly(String day) {
			return "report of " + day;
		}

	}

}
