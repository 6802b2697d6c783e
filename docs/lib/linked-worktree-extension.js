'use strict'

// Lets the playbook's local content source (url: ..) be a linked git worktree (`git worktree add`),
// whose .git is a file that names the main repository. Antora reads a linked worktree only through
// its main repository, with the worktree's branch and its name under `worktrees`: this extension rewrites
// such a source that way before the content is aggregated. A plain clone is left as it is.
const fs = require('node:fs')
const ospath = require('node:path')

module.exports.register = function ({ playbook }) {
	const logger = this.getLogger('linked-worktree-extension')
	const sources = playbook.content.sources.map((source) => {
		const dir = ospath.resolve(playbook.dir, source.url)
		const dotGit = ospath.join(dir, '.git')
		if (!fs.existsSync(dotGit) || fs.statSync(dotGit).isDirectory()) return source
		const gitdir = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'))[1].trim()
		const head = fs.readFileSync(ospath.join(gitdir, 'HEAD'), 'utf8').trim()
		const branch = head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : ospath.basename(gitdir)
		const mainRepository = ospath.dirname(ospath.dirname(ospath.dirname(gitdir)))
		logger.info(`reading the linked worktree ${dir} (branch ${branch}) through ${mainRepository}`)
		return Object.assign({}, source, { url: mainRepository, branches: [branch], worktrees: [ospath.basename(gitdir)] })
	})
	this.updateVariables({ playbook: Object.assign({}, playbook, { content: Object.assign({}, playbook.content, { sources }) }) })
}
