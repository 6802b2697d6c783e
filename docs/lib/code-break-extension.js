'use strict'

// Lets long names in a table cell break at their dots, hyphens, underscores and between the words
// of a CamelCase name, and (unless a single piece is wider than its column) only there: the generated
// property table's names (`distributed-lock.zookeeper.embedded.enabled`) and types
// (`java.time.Duration`) are wider than their columns, and breaking them anywhere cut words
// mid-token. Once the pages are converted, this extension puts a <wbr> after each dot and hyphen of
// the inline code of table cells; site.css keeps such code from breaking elsewhere.
const CELL = /<td class="tableblock[^"]*">[\s\S]*?<\/td>/g
const CODE = /<code>([^<]*)<\/code>/g

function breakable (html) {
  return html.replace(CELL, (cell) =>
    cell.replace(CODE, (code, text) => `<code>${text.replace(/([._-])(?=[^._\s-])/g, '$1<wbr>').replace(/([a-z])(?=[A-Z][a-z])/g, '$1<wbr>')}</code>`))
}

module.exports.register = function () {
  this.once('documentsConverted', ({ contentCatalog }) => {
    for (const page of contentCatalog.getPages((candidate) => candidate.out)) {
      page.contents = Buffer.from(breakable(page.contents.toString()))
    }
  })
}
