/**
 * Answering inside the webhook response. Telegram executes one Bot API call carried in the
 * body of a webhook request's 200 answer and counts the update delivered by the same answer,
 * so a reply sent that way and the acknowledgement are one event: a worker that dies before
 * its answer reached Telegram never replied, and the redelivery answers once.
 *
 * grammY short-circuits a call into the envelope given to `handleUpdate` when the client's
 * `canUseWebhookReply` says yes (and the call uploads no file); the call then returns `true`,
 * not the Message. Only calls run through `mayRide` may ride, and only while the update's
 * response is still open: after the answer deadline it has gone, and the call goes to the API.
 *
 * A send that does not ride (a photo, several messages, an answer the core may replace) goes
 * to the API only once the update's answer was written (`answerFirst`): sent while the answer
 * could still be cut off, a kill would bring the update again and the reply twice. Such a send
 * asks for the answer now rather than waiting out the deadline.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Transformer } from "grammy";

/** The webhook response of one update: the call riding in it, and whether it can still take one. */
export interface WebhookResponse {
  /** The JSON of the call to answer with (`{"method": …, …}`), once one rode. */
  body?: string;
  /** False once the answer is being written. */
  open: boolean;
  /** grammY's webhook reply envelope for `handleUpdate`. */
  readonly envelope: { send(json: string): Promise<void> };
  /** Resolves once a send that cannot ride waits for the answer: it is to be written now. */
  readonly wanted: Promise<void>;
  /** The webhook tells how writing the answer ended: without `error`, the sends waiting for it go. */
  written(error?: Error): void;
  /** Asks for the answer now; resolves once it was written, rejects when it was cut off. */
  answer(): Promise<void>;
}

const responses = new AsyncLocalStorage<WebhookResponse>();
const riding = new AsyncLocalStorage<true>();

function webhookResponse(): WebhookResponse {
  let want = (): void => undefined;
  const wanted = new Promise<void>((r) => (want = r));
  let settle = (_error?: Error): void => undefined;
  const answered = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
  // Most answers have no send waiting for them.
  answered.catch(() => undefined);
  const response: WebhookResponse = {
    open: true,
    envelope: {
      send: async (json) => {
        response.body = json;
      },
    },
    wanted,
    written: (error) => settle(error),
    answer: () => {
      want();
      return answered;
    },
  };
  return response;
}

/** Runs the handling of one update with its webhook response open to one call. */
export function withWebhookResponse<T>(handle: (response: WebhookResponse) => Promise<T>): Promise<T> {
  const response = webhookResponse();
  return responses.run(response, () => handle(response));
}

/** Runs `call`, whose one Bot API call may ride in the response of the update being handled. */
export function mayRide<T>(call: () => Promise<T>): Promise<T> {
  return riding.run(true, call);
}

/**
 * grammY's `canUseWebhookReply`: yes for a call run through `mayRide` while its update's
 * response is open and carries no call yet. grammY calls the envelope in the same tick, so the
 * deadline cannot close the response in between.
 */
export function canUseWebhookReply(): boolean {
  const response = responses.getStore();
  return riding.getStore() === true && response?.open === true && response.body === undefined;
}

/** Calls that put a message in a chat: done twice if their update is handled twice. */
const SENDS = /^send(?!ChatAction$)/;

/**
 * The transformer, innermost (next to grammY's own call, so that nothing awaits between its
 * look and the ride), that holds a send of an update's handling which will not ride until the
 * update's answer was written.
 */
export const answerFirst: Transformer = async (prev, method, payload, signal) => {
  const response = responses.getStore();
  if (response !== undefined && SENDS.test(method) && !canUseWebhookReply()) await response.answer();
  return prev(method, payload, signal);
};
