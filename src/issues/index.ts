export { toReadableIssues, formatIssues, formatPath, describeValue, type ReadableIssue } from './readable-issue.js'
export { shortPath } from './short-path.js'
