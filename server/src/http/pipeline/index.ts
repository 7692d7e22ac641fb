/**
 * The request pipeline (decision 1303): the steps every request of a bot's route goes through, in this order, each
 * written once and called by both answer paths (the Hono app's middlewares and routes, and the direct lane of hot
 * reads on node:http):
 *
 * 1. `beginRequest`: the request id and the arrival time;
 * 2. `authenticateCaller`: the bearer token and `x-bot-id` give the caller's principal;
 * 3. `takeOneRequest`: one request from the token's rate-limit bucket;
 * 4. `operationInput`: the input checks against the operation's schemas;
 * 5. `answerOperation`: the handler, and the JSON text of its answer (checked under `checkResponses`);
 * 6. `errorAnswer`: the wire error body of anything thrown, and the report of a 5xx;
 * 7. `recordRequest`: the request log line and the metrics.
 */
export { beginRequest, type RequestStart } from './request-id.js'
export { authenticateCaller, forbiddenMessage } from './authenticate.js'
export { bucketKey, takeOneRequest } from './rate-limit.js'
export { operationInput, operationInputWithoutBody, type InputSource, type OperationRequest } from './operation-input.js'
export { answerOperation, operationAnswerText } from './operation-answer.js'
export { errorAnswer, errorBodyText, reportServerError, toServiceError, type ErrorAnswer } from './error-answer.js'
export { apiAnswerHeaders, takesApiAnswerHeaders } from './api-answer-headers.js'
export { declaredLength, recordRequest, DEFAULT_SLOW_REQUEST_MS, type RequestRecord } from './record.js'
