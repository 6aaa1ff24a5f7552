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
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The webhook response of one update: the call riding in it, and whether it can still take one. */
export interface WebhookResponse {
  /** The JSON of the call to answer with (`{"method": …, …}`), once one rode. */
  body?: string;
  /** False once the answer was written. */
  open: boolean;
  /** grammY's webhook reply envelope for `handleUpdate`. */
  readonly envelope: { send(json: string): Promise<void> };
}

const responses = new AsyncLocalStorage<WebhookResponse>();
const riding = new AsyncLocalStorage<true>();

/** Runs the handling of one update with its webhook response open to one call. */
export function withWebhookResponse<T>(handle: (response: WebhookResponse) => Promise<T>): Promise<T> {
  const response: WebhookResponse = {
    open: true,
    envelope: {
      send: async (json) => {
        response.body = json;
      },
    },
  };
  return responses.run(response, () => handle(response));
}

/** Runs `call`, whose one Bot API call may ride in the response of the update being handled. */
export function mayRide<T>(call: () => Promise<T>): Promise<T> {
  return riding.run(true, call);
}

/**
 * grammY's `canUseWebhookReply`: yes for a call run through `mayRide` while its update's
 * response is open. grammY calls the envelope in the same tick, so the deadline cannot close
 * the response in between.
 */
export function canUseWebhookReply(): boolean {
  return riding.getStore() === true && responses.getStore()?.open === true;
}
