'use strict'

module.exports = (...args) => args.slice(0, -1).some((arg) => arg)
