package dev.zklock.testsupport.process;

import java.io.IOException;

/**
 * Receives what a {@link JvmProcess} prints, its standard output and error merged, line
 * by line on a thread of its own.
 */
public interface OutputLines {

	/**
	 * Takes the next line.
	 * @param line the line, without its end
	 * @throws IOException if the line cannot be kept; no more lines come then
	 */
	void line(String line) throws IOException;

	/**
	 * Learns that no more lines come: the process has closed its output, normally by
	 * exiting.
	 */
	void ended();

}
