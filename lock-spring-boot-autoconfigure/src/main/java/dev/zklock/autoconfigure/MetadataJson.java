package dev.zklock.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Parses the JSON of a configuration metadata file into maps, lists, strings, numbers,
 * booleans and nulls. Spring Boot's {@code JsonParserFactory} parses with Jackson when it
 * is on the class path and otherwise with its {@code BasicJsonParser}, which loses the
 * objects of a list of objects such as the metadata's {@code properties}; an application
 * that locks need not have Jackson.
 */
final class MetadataJson {

	private final String json;

	private int position;

	private MetadataJson(String json) {
		this.json = json;
	}

	/**
	 * Parses a JSON object.
	 * @param json the JSON text
	 * @return the object's members
	 * @throws IllegalArgumentException if the text is not a JSON object
	 */
	static Map<String, @Nullable Object> parseObject(String json) {
		MetadataJson parser = new MetadataJson(json);
		if (!(parser.value() instanceof Map<?, ?> object)) {
			throw new IllegalArgumentException("Not a JSON object");
		}
		@SuppressWarnings("unchecked")
		Map<String, @Nullable Object> members = (Map<String, @Nullable Object>) object;
		return members;
	}

	private @Nullable Object value() {
		char next = skipWhitespace();
		if (next == '{') {
			return object();
		}
		if (next == '[') {
			return array();
		}
		if (next == '"') {
			return string();
		}
		int start = this.position;
		while (this.position < this.json.length() && ",]} \t\r\n".indexOf(this.json.charAt(this.position)) < 0) {
			this.position++;
		}
		String literal = this.json.substring(start, this.position);
		return switch (literal) {
			case "true" -> true;
			case "false" -> false;
			case "null" -> null;
			default -> number(literal);
		};
	}

	private Map<String, @Nullable Object> object() {
		Map<String, @Nullable Object> members = new LinkedHashMap<>();
		this.position++;
		if (skipWhitespace() == '}') {
			this.position++;
			return members;
		}
		do {
			skipWhitespace();
			String name = string();
			expect(':');
			members.put(name, value());
		}
		while (separator('}'));
		return members;
	}

	private List<@Nullable Object> array() {
		List<@Nullable Object> elements = new ArrayList<>();
		this.position++;
		if (skipWhitespace() == ']') {
			this.position++;
			return elements;
		}
		do {
			elements.add(value());
		}
		while (separator(']'));
		return elements;
	}

	/** Reads a comma (true: another member follows) or the closing character. */
	private boolean separator(char closing) {
		char next = skipWhitespace();
		this.position++;
		if (next == ',') {
			return true;
		}
		if (next != closing) {
			throw new IllegalArgumentException("Expected ',' or '" + closing + "' at " + (this.position - 1));
		}
		return false;
	}

	private String string() {
		expect('"');
		StringBuilder string = new StringBuilder();
		for (char c = next(); c != '"'; c = next()) {
			if (c != '\\') {
				string.append(c);
				continue;
			}
			char escaped = next();
			switch (escaped) {
				case 'b' -> string.append('\b');
				case 'f' -> string.append('\f');
				case 'n' -> string.append('\n');
				case 'r' -> string.append('\r');
				case 't' -> string.append('\t');
				case 'u' -> {
					string.append((char) Integer.parseInt(this.json.substring(this.position, this.position + 4), 16));
					this.position += 4;
				}
				default -> string.append(escaped);
			}
		}
		return string.toString();
	}

	private static Number number(String literal) {
		try {
			if (literal.contains(".") || literal.contains("e") || literal.contains("E")) {
				return Double.parseDouble(literal);
			}
			return Long.parseLong(literal);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("Not a JSON value: '" + literal + "'", ex);
		}
	}

	private void expect(char expected) {
		if (skipWhitespace() != expected) {
			throw new IllegalArgumentException("Expected '" + expected + "' at " + this.position);
		}
		this.position++;
	}

	private char next() {
		if (this.position >= this.json.length()) {
			throw new IllegalArgumentException("Unexpected end of JSON");
		}
		return this.json.charAt(this.position++);
	}

	private char skipWhitespace() {
		while (this.position < this.json.length() && Character.isWhitespace(this.json.charAt(this.position))) {
			this.position++;
		}
		if (this.position >= this.json.length()) {
			throw new IllegalArgumentException("Unexpected end of JSON");
		}
		return this.json.charAt(this.position);
	}

}
