package dev.zklock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AbbreviatedKeyTests {

	@Test
	void keysUpToTheMaximumLengthAppearWhole() {
		String key = "k".repeat(AbbreviatedKey.MAX_LENGTH);
		assertThat(AbbreviatedKey.of(key)).isSameAs(key);
		assertThat(AbbreviatedKey.of("order:42")).isEqualTo("order:42");
	}

	@Test
	void longerKeysAppearAsTheirBeginningAndLength() {
		String key = "k".repeat(AbbreviatedKey.MAX_LENGTH) + "tail";
		assertThat(AbbreviatedKey.of(key))
			.isEqualTo("k".repeat(AbbreviatedKey.MAX_LENGTH) + "... (" + key.length() + " characters)");
	}

	@Test
	void abbreviationDoesNotSplitACharacterOutsideTheBasicPlane() {
		String key = "k".repeat(AbbreviatedKey.MAX_LENGTH - 1) + "\uD83D\uDD12" + "tail";
		assertThat(AbbreviatedKey.of(key))
			.isEqualTo("k".repeat(AbbreviatedKey.MAX_LENGTH - 1) + "... (" + key.length() + " characters)");
	}

}
