export { toReadableIssues, formatIssues, formatPath, describeValue, type ReadableIssue } from './readable-issue.js'
