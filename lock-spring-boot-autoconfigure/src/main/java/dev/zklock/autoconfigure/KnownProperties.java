package dev.zklock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The properties under {@code distributed-lock.} that the modules on the class path
 * define, as their configuration metadata lists them (every
 * {@code META-INF/spring-configuration-metadata.json} that the build generates from the
 * {@code @ConfigurationProperties} classes, and every
 * {@code META-INF/additional-spring-configuration-metadata.json}), and whether a name
 * read from a property source is one of them.
 * <p>
 * Names are compared as Spring Boot binds them: element by element, in lower case,
 * without dashes and across element boundaries, so that
 * {@code distributed-lock.wait-time}, {@code distributedLock.waitTime} and the
 * environment variable {@code DISTRIBUTED_LOCK_WAIT_TIME} (the name
 * {@code distributed.lock.wait.time}) are all the same property. A property also takes
 * list forms ({@code connect-string[0]},
 * {@code DISTRIBUTED_LOCK_ZOOKEEPER_CONNECT_STRING_0}): whether its type takes a list is
 * for binding to say, not for this check. A property whose type is a {@code Map} takes
 * any key below it.
 */
final class KnownProperties {

	static final String PREFIX = "distributed-lock.";

	private static final String NAMESPACE = "distributedlock";

	private static final List<String> METADATA = List.of("classpath*:META-INF/spring-configuration-metadata.json",
			"classpath*:META-INF/additional-spring-configuration-metadata.json");

	/**
	 * The known names, each by its uniform form (lower case, without dashes and dots).
	 */
	private final Map<String, String> names;

	/**
	 * The uniform forms of the known names whose type is a {@code Map}.
	 */
	private final Set<String> maps;

	private KnownProperties(Map<String, String> names, Set<String> maps) {
		this.names = names;
		this.maps = maps;
	}

	/**
	 * Reads the configuration metadata on the class path.
	 * @param classLoader the class loader whose class path is read
	 * @return the known properties
	 * @throws UncheckedIOException if the metadata cannot be read
	 */
	static KnownProperties load(@Nullable ClassLoader classLoader) {
		Map<String, String> names = new LinkedHashMap<>();
		Set<String> maps = new HashSet<>();
		PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(classLoader);
		try {
			for (String pattern : METADATA) {
				for (Resource resource : resolver.getResources(pattern)) {
					for (Map<?, ?> property : properties(resource)) {
						if (property.get("name") instanceof String name && name.startsWith(PREFIX)) {
							String uniform = uniform(ConfigurationPropertyName.of(name));
							names.put(uniform, name);
							if (property.get("type") instanceof String type && type.startsWith("java.util.Map<")) {
								maps.add(uniform);
							}
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the configuration metadata on the class path", ex);
		}
		return new KnownProperties(names, maps);
	}

	private static List<Map<?, ?>> properties(Resource resource) throws IOException {
		String json;
		try (InputStream input = resource.getInputStream()) {
			json = new String(input.readAllBytes(), StandardCharsets.UTF_8);
		}
		if (!json.contains("\"" + PREFIX)) {
			return List.of();
		}
		Object properties;
		try {
			properties = MetadataJson.parseObject(json).get("properties");
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException(
					"Cannot parse the configuration metadata " + resource + ": " + ex.getMessage(), ex);
		}
		if (!(properties instanceof List<?> list)) {
			return List.of();
		}
		return list.stream().filter(Map.class::isInstance).<Map<?, ?>>map(Map.class::cast).toList();
	}

	/**
	 * Whether the metadata named no property at all, as when it is not on the class path.
	 * @return whether no property is known
	 */
	boolean isEmpty() {
		return this.names.isEmpty();
	}

	/**
	 * Whether a name is below {@code distributed-lock}, in any of its forms.
	 * @param name the name
	 * @return whether it is below the namespace
	 */
	static boolean isBelowNamespace(ConfigurationPropertyName name) {
		StringBuilder uniform = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements() - 1 && uniform.length() < NAMESPACE.length(); i++) {
			uniform.append(name.getElement(i, Form.UNIFORM));
		}
		return uniform.toString().equals(NAMESPACE);
	}

	/**
	 * Whether a name is a known property, a list form of one, or a key of a known map.
	 * @param name the name
	 * @return whether it is known
	 */
	boolean isKnown(ConfigurationPropertyName name) {
		StringBuilder uniform = new StringBuilder();
		int elements = name.getNumberOfElements();
		for (int i = 0; i < elements && !name.isNumericIndex(i); i++) {
			uniform.append(name.getElement(i, Form.UNIFORM));
			boolean last = i == elements - 1;
			if ((this.maps.contains(uniform.toString()) && !last)
					|| (this.names.containsKey(uniform.toString()) && (last || name.isNumericIndex(i + 1)))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The known property closest to a name that is not known, by the edits that turn one
	 * into the other (a transposition counts as one), if few enough to suggest it: at
	 * most two, or a quarter of the known name's length below the namespace.
	 * @param name the unknown name
	 * @return the closest known property's name, or {@code null}
	 */
	@Nullable String closest(ConfigurationPropertyName name) {
		String unknown = uniform(name).substring(NAMESPACE.length());
		String closest = null;
		int closestDistance = Integer.MAX_VALUE;
		for (Map.Entry<String, String> known : this.names.entrySet()) {
			String candidate = known.getKey().substring(NAMESPACE.length());
			int distance = distance(unknown, candidate);
			if (distance < closestDistance && distance <= Math.max(2, candidate.length() / 4)) {
				closest = known.getValue();
				closestDistance = distance;
			}
		}
		return closest;
	}

	private static String uniform(ConfigurationPropertyName name) {
		StringBuilder uniform = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			if (!name.isNumericIndex(i)) {
				uniform.append(name.getElement(i, Form.UNIFORM));
			}
		}
		return uniform.toString();
	}

	/**
	 * The optimal string alignment distance: insertions, deletions, substitutions and
	 * transpositions of neighbours, each counting one.
	 */
	private static int distance(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int substitution = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + substitution);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[a.length()][b.length()];
	}

}
