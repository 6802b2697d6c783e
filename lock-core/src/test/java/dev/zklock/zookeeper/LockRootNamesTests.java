package dev.zklock.zookeeper;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.apache.zookeeper.common.PathUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class LockRootNamesTests {

	@Test
	void plainKeysStayReadable() {
		assertThat(LockRoot.nodeName("order:42")).isEqualTo("order:42");
		assertThat(LockRoot.nodeName("report-2026.11_22")).isEqualTo("report-2026.11_22");
	}

	@Test
	void slashesAndPercentSignsAreEncoded() {
		assertThat(LockRoot.nodeName("a/b")).isEqualTo("a%2Fb");
		assertThat(LockRoot.nodeName("a%2Fb")).isEqualTo("a%252Fb");
	}

	@Test
	void dotNamesAreEncoded() {
		assertThat(LockRoot.nodeName(".")).isEqualTo("%2E");
		assertThat(LockRoot.nodeName("..")).isEqualTo("%2E%2E");
		assertThat(LockRoot.nodeName("...")).isEqualTo("...");
	}

	@Test
	void unicodeIsEncodedAsUtf8() {
		assertThat(LockRoot.nodeName("订单")).isEqualTo("%E8%AE%A2%E5%8D%95");
		assertThat(LockRoot.nodeName("😀")).isEqualTo("%F0%9F%98%80");
	}

	@Test
	void unpairedSurrogatesAreEncodedDistinctly() {
		assertThat(LockRoot.nodeName("\uD83D")).isEqualTo("%uD83D");
		assertThat(LockRoot.nodeName("\uDE00x")).isEqualTo("%uDE00x");
	}

	@Test
	void longKeysAreHashedBehindAReadablePrefix() {
		String key = "k".repeat(10_000);
		String name = LockRoot.nodeName(key);
		assertThat(name).hasSize(64 + 1 + 64).startsWith("k".repeat(64) + "~");
		assertThat(LockRoot.nodeName(key + "x")).isNotEqualTo(name);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/", "..", "../../zookeeper", "a/../../b", "\u0000", "\n\t", "zookeeper", "~", " " })
	void hostileKeysMapToOneValidNodeName(String key) {
		String name = LockRoot.nodeName(key);
		assertThat(name).doesNotContain("/").isNotIn(".", "..");
		PathUtils.validatePath("/locks/" + name);
	}

	@Test
	void distinctRandomKeysGetDistinctValidNames() {
		Random random = new Random(42);
		Map<String, String> keysByName = new HashMap<>();
		for (int i = 0; i < 20_000; i++) {
			String key = randomKey(random);
			String name = LockRoot.nodeName(key);
			PathUtils.validatePath("/locks/" + name);
			String previous = keysByName.putIfAbsent(name, key);
			assertThat(previous == null || previous.equals(key))
				.as("keys '%s' and '%s' share node %s", previous, key, name)
				.isTrue();
		}
	}

	@Test
	void generatedHostileKeysOfEveryLengthMapToOneValidNodeName() {
		Random random = new Random(7);
		for (int i = 0; i < 10_000; i++) {
			String key = hostileKey(random);
			String name = LockRoot.nodeName(key);
			assertThat(name).as("node of key %s", key.codePoints().limit(40).boxed().toList())
				.doesNotContain("/")
				.isNotIn(".", "..")
				.hasSizeLessThanOrEqualTo(LockRoot.MAX_READABLE_LENGTH);
			PathUtils.validatePath("/locks/" + name);
			assertThat(LockRoot.nodeName(key)).isEqualTo(name);
		}
	}

	/**
	 * A key built from path syntax, control characters, unicode from every plane, lone
	 * surrogates, and lengths from one character to 10 KB, around the hashing threshold
	 * too.
	 */
	static String hostileKey(Random random) {
		int[] lengths = { 1, 2, 3, 8, 40, 159, 160, 161, 500, 10_240 };
		int length = lengths[random.nextInt(lengths.length)];
		StringBuilder key = new StringBuilder();
		while (key.length() < length) {
			switch (random.nextInt(6)) {
				case 0 -> key.append(new String[] { "/", ".", "..", "../", "/./", "%", "~", "%2F" }[random.nextInt(8)]);
				case 1 -> key.append((char) random.nextInt(0x20));
				case 2 -> key.append((char) (0xD800 + random.nextInt(0x800)));
				case 3 -> key.append((char) random.nextInt(0x10000));
				case 4 -> key.appendCodePoint(random.nextInt(0x10FFFF));
				default -> key.append((char) ('a' + random.nextInt(26)));
			}
		}
		return key.toString();
	}

	private static String randomKey(Random random) {
		int length = 1 + random.nextInt(12);
		StringBuilder key = new StringBuilder();
		for (int i = 0; i < length; i++) {
			switch (random.nextInt(4)) {
				case 0 -> key.append("/.%~a".charAt(random.nextInt(5)));
				case 1 -> key.append((char) random.nextInt(0x80));
				case 2 -> key.append((char) random.nextInt(0x10000));
				default -> key.appendCodePoint(random.nextInt(0x10FFFF));
			}
		}
		return key.toString();
	}

}
