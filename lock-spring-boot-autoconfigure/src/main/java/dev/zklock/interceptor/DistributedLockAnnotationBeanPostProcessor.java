package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import dev.zklock.LockTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.Ordered;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Proxies beans with {@link DistributedLock} methods so that each call runs under its
 * lock. By default the lock advice goes before the advice a bean already has, such as
 * {@code @Transactional}'s, so a lock wraps the transaction: acquire, begin, commit,
 * release ({@link #setBeforeExistingAdvisors(boolean)} with {@code false} puts it inside
 * instead).
 * <p>
 * The annotations of a bean are parsed when the bean is created, so a malformed key
 * expression or wait time fails start-up with a message naming the method.
 */
public class DistributedLockAnnotationBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	/**
	 * The parser of the annotations, set with the bean factory.
	 */
	private @Nullable LockSpecSource specs;

	/**
	 * Creates a post-processor that proxies target classes and puts the lock advice
	 * first.
	 */
	public DistributedLockAnnotationBeanPostProcessor() {
		setBeforeExistingAdvisors(true);
		setProxyTargetClass(true);
		setOrder(Ordered.LOWEST_PRECEDENCE);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		super.setBeanFactory(beanFactory);
		ConfigurableBeanFactory configurable = (beanFactory instanceof ConfigurableBeanFactory cbf) ? cbf : null;
		this.specs = new LockSpecSource((configurable != null) ? configurable::resolveEmbeddedValue : null,
				beanFactory);
		LockKeyEvaluator keyEvaluator = new LockKeyEvaluator(new BeanFactoryResolver(beanFactory));
		DistributedLockInterceptor interceptor = new DistributedLockInterceptor(this.specs, keyEvaluator,
				SingletonSupplier.of(() -> beanFactory.getBean(LockTemplate.class)));
		this.advisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, DistributedLock.class, true),
				interceptor);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (this.specs != null && isEligible(bean, beanName)) {
			parseAnnotations(this.specs, AopProxyUtils.ultimateTargetClass(bean));
		}
		return super.postProcessAfterInitialization(bean, beanName);
	}

	private static void parseAnnotations(LockSpecSource specs, Class<?> targetClass) {
		ReflectionUtils.doWithMethods(targetClass, (method) -> specs.getLockSpec(method, targetClass),
				ReflectionUtils.USER_DECLARED_METHODS);
	}

}
