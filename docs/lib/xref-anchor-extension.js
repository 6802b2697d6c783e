'use strict'

// Fails the build on a cross-reference to a section that does not exist. Antora checks that the
// page of an xref exists, not its fragment: `xref:peers.adoc#_under_faults[]` renders a link to a
// page that has no such id, silently. Once the pages are converted, this extension collects the ids
// of every page and logs an error (the playbook's failure level is warn) for each link of a page,
// to itself (`#id`) or to another page of the site (`other.html#id`), whose fragment is not an id
// of its target page.
const path = require('node:path')

const ID = /\sid="([^"]+)"/g
const LINK = /<a href="([^"#:]*)#([^"]+)"/g

module.exports.register = function () {
  const logger = this.getLogger('xref-anchor-extension')
  this.once('documentsConverted', ({ contentCatalog }) => {
    const pages = contentCatalog.getPages((page) => page.out)
    const ids = new Map()
    for (const page of pages) {
      ids.set(page.out.path, new Set([...page.contents.toString().matchAll(ID)].map((match) => match[1])))
    }
    for (const page of pages) {
      for (const [, target, fragment] of page.contents.toString().matchAll(LINK)) {
        const targetPath = target ? path.posix.join(path.posix.dirname(page.out.path), target) : page.out.path
        const targetIds = ids.get(targetPath)
        if (!targetIds) continue // not a page of the site: Antora reports a missing page itself
        const id = decodeURIComponent(fragment)
        if (!targetIds.has(id)) {
          logger.error(`${page.src.relative}: a cross-reference to ${target || 'this page'}#${id}, which has no such section`)
        }
      }
    }
  })
}
