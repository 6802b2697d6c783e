package dev.zklock.benchmarks;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How enum constants are named on the command line and in reports: lower case with
 * dashes, {@code HOT_KEY} as {@code hot-key}.
 */
final class CommandLineNames {

	private CommandLineNames() {
	}

	/**
	 * The command-line name of a constant.
	 * @param constant the constant
	 * @return its name
	 */
	static String of(Enum<?> constant) {
		return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/**
	 * The constant with a command-line name.
	 * @param <E> the enum
	 * @param type the enum's class
	 * @param name the name
	 * @return the constant
	 * @throws IllegalArgumentException if no constant has the name
	 */
	static <E extends Enum<E>> E parse(Class<E> type, String name) {
		E[] constants = type.getEnumConstants();
		return Arrays.stream(constants)
			.filter((constant) -> of(constant).equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(
					"Unknown " + type.getSimpleName().toLowerCase(Locale.ROOT) + " '" + name + "'; known: "
							+ Arrays.stream(constants).map(CommandLineNames::of).collect(Collectors.joining(", "))));
	}

}
