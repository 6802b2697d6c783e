package dev.zklock.autoconfigure.zookeeper;

import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * Customizes the {@link CuratorFrameworkFactory.Builder} of the auto-configured
 * {@link org.apache.curator.framework.CuratorFramework} before the client is built, for
 * example to add authentication or an ACL provider.
 */
@FunctionalInterface
public interface CuratorFrameworkBuilderCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, already configured from the properties
	 */
	void customize(CuratorFrameworkFactory.Builder builder);

}
