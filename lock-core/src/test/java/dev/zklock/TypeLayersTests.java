package dev.zklock;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core's types stand in layers a reader can follow from the top down: no type
 * depends, directly or through others, on a type that depends on it, and the longest
 * chain of dependencies among them is at most seven types. A nested type counts as part
 * of its outer type; dependencies are read from the compiled classes.
 */
class TypeLayersTests {

	private static final int LONGEST_CHAIN = 7;

	private final Map<String, Set<String>> dependencies = dependenciesOf(
			new ClassFileImporter().importPath(Path.of("target", "classes")));

	@Test
	void noTypeDependsOnATypeThatDependsOnIt() {
		assertThat(cycles()).isEmpty();
	}

	@Test
	void longestChainOfDependenciesIsAtMostSevenTypes() {
		Map<String, Integer> depth = new HashMap<>();
		List<String> chain = new ArrayList<>();
		for (String type : this.dependencies.keySet()) {
			List<String> longest = longestChainFrom(type, depth, new TreeSet<>());
			if (longest.size() > chain.size()) {
				chain = longest;
			}
		}
		System.out.println("Longest chain of the core's types (" + chain.size() + "): " + String.join(" -> ", chain));
		assertThat(chain).hasSizeLessThanOrEqualTo(LONGEST_CHAIN);
	}

	private List<String> longestChainFrom(String type, Map<String, Integer> depth, Set<String> visiting) {
		List<String> longest = List.of();
		if (visiting.add(type)) {
			for (String used : this.dependencies.get(type)) {
				List<String> chain = longestChainFrom(used, depth, visiting);
				if (chain.size() > longest.size()) {
					longest = chain;
				}
			}
			visiting.remove(type);
		}
		List<String> chain = new ArrayList<>();
		chain.add(simpleName(type));
		chain.addAll(longest);
		return chain;
	}

	/**
	 * The groups of types that depend on each other (Tarjan's strongly connected
	 * components of more than one type).
	 */
	private List<Set<String>> cycles() {
		Map<String, Integer> index = new HashMap<>();
		Map<String, Integer> lowLink = new HashMap<>();
		List<String> stack = new ArrayList<>();
		List<Set<String>> cycles = new ArrayList<>();
		for (String type : this.dependencies.keySet()) {
			if (!index.containsKey(type)) {
				connect(type, index, lowLink, stack, cycles);
			}
		}
		return cycles;
	}

	private void connect(String type, Map<String, Integer> index, Map<String, Integer> lowLink, List<String> stack,
			List<Set<String>> cycles) {
		index.put(type, index.size());
		lowLink.put(type, index.get(type));
		stack.add(type);
		for (String used : this.dependencies.get(type)) {
			if (!index.containsKey(used)) {
				connect(used, index, lowLink, stack, cycles);
				lowLink.put(type, Math.min(lowLink.get(type), lowLink.get(used)));
			}
			else if (stack.contains(used)) {
				lowLink.put(type, Math.min(lowLink.get(type), index.get(used)));
			}
		}
		if (lowLink.get(type).equals(index.get(type))) {
			Set<String> component = new TreeSet<>();
			String member;
			do {
				member = stack.remove(stack.size() - 1);
				component.add(simpleName(member));
			}
			while (!member.equals(type));
			if (component.size() > 1) {
				cycles.add(component);
			}
		}
	}

	private static Map<String, Set<String>> dependenciesOf(JavaClasses classes) {
		Map<String, Set<String>> dependencies = new TreeMap<>();
		for (JavaClass javaClass : classes) {
			String type = topLevelNameOf(javaClass);
			Set<String> used = dependencies.computeIfAbsent(type, (t) -> new TreeSet<>());
			for (Dependency dependency : javaClass.getDirectDependenciesFromSelf()) {
				JavaClass target = dependency.getTargetClass();
				if (target.getPackageName().startsWith("dev.zklock") && classes.contain(target.getName())) {
					String usedType = topLevelNameOf(target);
					if (!usedType.equals(type)) {
						used.add(usedType);
					}
				}
			}
		}
		return dependencies;
	}

	private static String topLevelNameOf(JavaClass javaClass) {
		String name = javaClass.getName();
		int nested = name.indexOf('$');
		return (nested < 0) ? name : name.substring(0, nested);
	}

	private static String simpleName(String type) {
		return type.substring(type.lastIndexOf('.') + 1);
	}

}
