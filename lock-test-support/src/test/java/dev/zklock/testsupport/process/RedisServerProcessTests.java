package dev.zklock.testsupport.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link RedisServerProcess}: a real {@code redis-server}, spoken to in plain
 * RESP, killed and restarted on the same port with what its persistence kept.
 */
class RedisServerProcessTests {

	@TempDir
	Path directory;

	@Test
	void aKeyWrittenBeforeAKillIsStillThereAfterTheRestartWhenEveryWriteIsFsynced() throws Exception {
		assumeTrue(RedisServerProcess.isAvailable(), "no redis-server: apt-get install redis-server");
		try (RedisServerProcess server = RedisServerProcess.start(this.directory.resolve("redis"),
				RedisServerProcess.Persistence.APPENDFSYNC_ALWAYS)) {
			assertThat(call(server, "SET", "lock", "holder-1")).isEqualTo("+OK");
			server.kill();
			server.restart();
			assertThat(call(server, "GET", "lock")).isEqualTo("holder-1");
		}
	}

	@Test
	void aKeyWrittenBeforeAKillIsGoneAfterTheRestartAsRedisShips() throws Exception {
		assumeTrue(RedisServerProcess.isAvailable(), "no redis-server: apt-get install redis-server");
		try (RedisServerProcess server = RedisServerProcess.start(this.directory.resolve("redis"),
				RedisServerProcess.Persistence.SHIPPED)) {
			int port = server.port();
			assertThat(call(server, "SET", "lock", "holder-1")).isEqualTo("+OK");
			server.kill();
			server.restart();
			assertThat(server.port()).isEqualTo(port);
			assertThat(call(server, "GET", "lock")).isNull();
		}
	}

	@Test
	void aPausedServerAnswersAgainWhenResumed() throws Exception {
		assumeTrue(RedisServerProcess.isAvailable(), "no redis-server: apt-get install redis-server");
		try (RedisServerProcess server = RedisServerProcess.start(this.directory.resolve("redis"),
				RedisServerProcess.Persistence.SHIPPED)) {
			server.pause();
			server.resume();
			assertThat(call(server, "PING")).isEqualTo("+PONG");
			assertThat(server.address()).isEqualTo("127.0.0.1:" + server.port());
		}
	}

	@Test
	void closeDeletesTheServersDirectory() throws Exception {
		assumeTrue(RedisServerProcess.isAvailable(), "no redis-server: apt-get install redis-server");
		Path serverDirectory = this.directory.resolve("redis");
		RedisServerProcess server = RedisServerProcess.start(serverDirectory, RedisServerProcess.Persistence.SHIPPED);
		assertThat(serverDirectory.resolve("redis.conf")).exists();
		server.close();
		assertThat(Files.exists(serverDirectory)).isFalse();
	}

	/**
	 * Sends a command in RESP and reads a simple reply, or a bulk string's value
	 * ({@code null} for none).
	 */
	private static String call(RedisServerProcess server, String... command) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
			StringBuilder request = new StringBuilder("*" + command.length + "\r\n");
			for (String part : command) {
				request.append('$').append(part.length()).append("\r\n").append(part).append("\r\n");
			}
			OutputStream output = socket.getOutputStream();
			output.write(request.toString().getBytes(StandardCharsets.UTF_8));
			output.flush();
			BufferedReader input = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			String reply = input.readLine();
			if (reply.equals("$-1")) {
				return null;
			}
			return reply.startsWith("$") ? input.readLine() : reply;
		}
	}

}
