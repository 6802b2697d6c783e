'use strict'

// Highlights the guide's source listings with highlight.js (the npm package pinned in package.json)
// while the site is built, so the pages carry their colours as HTML and need no script: Asciidoctor
// marks each listing `<code class="language-java hljs" data-lang="java">` (Antora's default
// source-highlighter is highlight.js, which leaves the highlighting to the UI), and this extension
// highlights it before the pages are composed. It also adds highlight.js's GitHub theme to the UI as
// css/highlight.css, which the layout links. A listing in a language highlight.js does not know
// (`text`) is left plain; a shell listing is highlighted as Bash.
const fs = require('node:fs')
const hljs = require('highlight.js')

const LISTING = /<code class="language-([\w+-]+) hljs" data-lang="[\w+-]+">([\s\S]*?)<\/code>/g
const ENTITIES = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" }
// highlight.js's `shell` is a console session (`$ ` prompts); the guide's shell listings are commands
const GRAMMARS = { shell: 'bash' }

function highlight (html, page, logger) {
  return html.replace(LISTING, (listing, language, escaped) => {
    const grammar = GRAMMARS[language] || language
    if (!hljs.getLanguage(grammar)) return listing
    if (escaped.includes('<')) {
      logger.warn(`${page}: a ${language} listing holds markup (a callout?), left plain`)
      return listing
    }
    const code = escaped.replace(/&(?:lt|gt|amp|quot|#39);/g, (entity) => ENTITIES[entity])
    const highlighted = hljs.highlight(code, { language: grammar, ignoreIllegals: true }).value
    return `<code class="language-${language} hljs" data-lang="${language}">${highlighted}</code>`
  })
}

module.exports.register = function () {
  const logger = this.getLogger('highlight-extension')
  this.once('uiLoaded', ({ uiCatalog }) => {
    const contents = fs.readFileSync(require.resolve('highlight.js/styles/github.css'))
    uiCatalog.addFile({
      type: 'asset',
      path: 'css/highlight.css',
      contents,
      out: { dirname: '_/css', basename: 'highlight.css', path: '_/css/highlight.css' },
    })
  })
  this.once('documentsConverted', ({ contentCatalog }) => {
    for (const page of contentCatalog.getPages((candidate) => candidate.out)) {
      page.contents = Buffer.from(highlight(page.contents.toString(), page.src.relative, logger))
    }
  })
}
