package dev.zklock.autoconfigure.zookeeper;

import org.jspecify.annotations.Nullable;

/**
 * Authentication of the client to ZooKeeper. When credentials are set, every node the
 * client creates is readable and writable only by clients holding the same credentials.
 */
public class ZooKeeperAuthenticationProperties {

	/**
	 * Authentication scheme; 'digest' (user name and password) is the only one supported.
	 */
	private String scheme = "digest";

	/**
	 * User name for digest authentication. Setting it turns on authentication and
	 * restricts the nodes the client creates to clients with the same credentials.
	 */
	private @Nullable String username;

	/**
	 * Password for digest authentication.
	 */
	private @Nullable String password;

	/**
	 * The authentication scheme
	 * ({@code distributed-lock.zookeeper.authentication.scheme}).
	 * @return the scheme
	 */
	public String getScheme() {
		return this.scheme;
	}

	/**
	 * Sets the authentication scheme
	 * ({@code distributed-lock.zookeeper.authentication.scheme}).
	 * @param scheme the scheme
	 */
	public void setScheme(String scheme) {
		this.scheme = scheme;
	}

	/**
	 * The user name for digest authentication
	 * ({@code distributed-lock.zookeeper.authentication.username}).
	 * @return the user name, or {@code null}
	 */
	public @Nullable String getUsername() {
		return this.username;
	}

	/**
	 * Sets the user name for digest authentication
	 * ({@code distributed-lock.zookeeper.authentication.username}).
	 * @param username the user name, or {@code null}
	 */
	public void setUsername(@Nullable String username) {
		this.username = username;
	}

	/**
	 * The password for digest authentication
	 * ({@code distributed-lock.zookeeper.authentication.password}).
	 * @return the password, or {@code null}
	 */
	public @Nullable String getPassword() {
		return this.password;
	}

	/**
	 * Sets the password for digest authentication
	 * ({@code distributed-lock.zookeeper.authentication.password}).
	 * @param password the password, or {@code null}
	 */
	public void setPassword(@Nullable String password) {
		this.password = password;
	}

}
