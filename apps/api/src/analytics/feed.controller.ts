import { Controller, MessageEvent, Req, Sse } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { finalize, interval, map, merge, Observable, Subject } from 'rxjs';
import { FeedExecution, LiveExecutionFeed } from '@app/analytics';
import { ApiErrors } from '../http/api-envelope.decorator';
import { Unwrapped } from '../http/envelope.interceptor';
import { FeedExecutionEvent, toFeedExecutionEvent } from './dto/feed.dto';

/** A comment-free keep-alive for proxies that close an idle stream. */
const PING_MS = 15_000;
/** Event data a watcher that stops reading may leave waiting before its stream is dropped (characters). */
const MAX_PENDING = 64 * 1024;

/** Each execution's event, made once and shared by every watcher (the same object reaches them all). */
const events = new WeakMap<FeedExecution, MessageEvent>();
const eventOf = (e: FeedExecution): MessageEvent => {
  let m = events.get(e);
  if (!m) events.set(e, (m = { type: 'execution', id: e.eventId, data: JSON.stringify(toFeedExecutionEvent(e)) }));
  return m;
};

@ApiTags('feed')
@Controller('feed')
export class FeedController {
  constructor(private readonly feed: LiveExecutionFeed) {}

  @Sse('executions', { maxPendingDataLength: MAX_PENDING })
  // Each event is its own message (its errors before the stream keep the error envelope).
  @Unwrapped()
  @ApiOperation({
    summary:
      'Executions outside chains as they end, as server-sent events: `execution` events (public fields only: no input, output, payer or payment header) and a `ping` every 15 s; at most FEED_MAX_PER_IP streams per address',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ type: FeedExecutionEvent, description: 'The data of each `execution` event (JSON)' })
  @ApiErrors(429, 503)
  executions(@Req() req: Request): Observable<MessageEvent> {
    const stream = new Subject<MessageEvent>();
    // Subscribed before the stream starts: a full feed answers in the error envelope, not an empty stream.
    const off = this.feed.subscribe({
      ip: req.ip ?? 'unknown',
      next: (e) => stream.next(eventOf(e)),
      close: () => stream.complete(),
    });
    const pings = interval(PING_MS).pipe(map((): MessageEvent => ({ type: 'ping', data: '{}' })));
    return new Observable<MessageEvent>((sub) => {
      const inner = merge(stream, pings).subscribe(sub);
      // Ended by the feed (shutdown): the pings end with it.
      stream.subscribe({ complete: () => sub.complete() });
      return () => inner.unsubscribe();
    }).pipe(finalize(off));
  }
}
