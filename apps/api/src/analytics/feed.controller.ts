import { Controller, MessageEvent, Sse } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { finalize, interval, map, merge, Observable, Subject } from 'rxjs';
import { LiveExecutionFeed } from '@app/analytics';
import { ApiErrors } from '../http/api-envelope.decorator';
import { Unwrapped } from '../http/envelope.interceptor';
import { FeedExecutionEvent, toFeedExecutionEvent } from './dto/feed.dto';

/** A comment-free keep-alive for proxies that close an idle stream. */
const PING_MS = 15_000;

@ApiTags('feed')
@Controller('feed')
export class FeedController {
  constructor(private readonly feed: LiveExecutionFeed) {}

  @Sse('executions')
  // Each event is its own message (its errors before the stream keep the error envelope).
  @Unwrapped()
  @ApiOperation({
    summary:
      'Executions as they end, as server-sent events: `execution` events (public fields only: no input, output, payer or payment header) and a `ping` every 15 s',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ type: FeedExecutionEvent, description: 'The data of each `execution` event (JSON)' })
  @ApiErrors(503)
  executions(): Observable<MessageEvent> {
    const events = new Subject<MessageEvent>();
    // Subscribed before the stream starts: a full feed answers 503 in the envelope, not an empty stream.
    const off = this.feed.subscribe((e) =>
      events.next({ type: 'execution', id: e.eventId, data: toFeedExecutionEvent(e) }),
    );
    const pings = interval(PING_MS).pipe(map((): MessageEvent => ({ type: 'ping', data: {} })));
    return merge(events, pings).pipe(finalize(off));
  }
}
