package dev.zklock.autoconfigure.zookeeper;

import java.nio.charset.StandardCharsets;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.Ordered;
import org.springframework.util.StringUtils;

/**
 * Applies {@code distributed-lock.zookeeper.authentication.*}: digest credentials added
 * to every session of the client, and a creator-only ACL on every node it creates, so
 * that only clients holding the same credentials can read, change or delete them. Does
 * nothing when no user name is set. Runs before the application's customizers.
 */
final class DigestAuthenticationCustomizer implements CuratorFrameworkBuilderCustomizer, Ordered {

	static final String SCHEME = "digest";

	private static final Log logger = LogFactory.getLog(DigestAuthenticationCustomizer.class);

	private static final String PREFIX = "distributed-lock.zookeeper.authentication.";

	private static final String HIDDEN = "******";

	private final byte @Nullable [] credentials;

	DigestAuthenticationCustomizer(ZooKeeperProperties properties) {
		this.credentials = credentials(properties.getAuthentication());
		if (this.credentials != null && !properties.getSsl().isEnabled()
				&& !Boolean.getBoolean("zookeeper.client.secure")) {
			logger.warn("ZooKeeper digest credentials travel in plain text, readable by anybody on the network "
					+ "path: connect over TLS with 'distributed-lock.zookeeper.ssl.enabled=true'");
		}
	}

	private static byte @Nullable [] credentials(ZooKeeperAuthenticationProperties authentication) {
		if (!SCHEME.equals(authentication.getScheme())) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "scheme", authentication.getScheme(),
					"The only supported scheme is '" + SCHEME + "'.");
		}
		String username = authentication.getUsername();
		String password = authentication.getPassword();
		if (username == null) {
			if (password != null) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + "username", null,
						"It must be set when a password is set.");
			}
			return null;
		}
		if (!StringUtils.hasText(username) || username.indexOf(':') >= 0) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "username", username,
					"It must not be blank nor contain ':'.");
		}
		if (!StringUtils.hasLength(password)) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "password",
					(password != null) ? HIDDEN : null, "It must be set, and not empty, when a user name is set.");
		}
		return (username + ":" + password).getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public void customize(CuratorFrameworkFactory.Builder builder) {
		if (this.credentials != null) {
			builder.authorization(SCHEME, this.credentials.clone()).aclProvider(new CreatorAllAclProvider());
		}
	}

	@Override
	public int getOrder() {
		return 0;
	}

}
