/* Generated from docs/openapi.json by `npm run openapi` (openapi-typescript). Do not edit. */
export interface paths {
    "/.well-known/agent-card.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A2A agent card of the marketplace: the best-ranked capabilities as skills */
        get: operations["ManifestsController_card"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/did.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** did:web document of this deployment: the receipt keys (JWS kid), current one first */
        get: operations["ReceiptsController_did"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/x402": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** x402 discovery manifest: the best-ranked capabilities as resource pointers */
        get: operations["ManifestsController_x402"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/x402.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** x402 well-known discovery manifest: payment terms, input and output (paged) */
        get: operations["ManifestsController_x402Json"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/agents/suspended": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Suspended agents, most recently suspended first, with who suspended them, when and why (platform read) */
        get: operations["AdminAgentsController_suspended"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/agents/{id}/reinstate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reinstate a suspended agent (platform action) */
        post: operations["AdminAgentsController_reinstate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/agents/{id}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suspend an agent (platform action) */
        post: operations["AdminAgentsController_suspend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Disputes awaiting a platform decision (pending, or responded by the agent), oldest first, with both sides, the response deadline and what advance would change per outcome (platform read) */
        get: operations["AdminDisputesController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/disputes/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve a dispute (platform action): agent_wins releases the frozen earnings, client_wins refunds the agent fee, split refunds half; what the agent had withdrawn becomes its debt to the payer unless advance is true */
        post: operations["AdminDisputesController_resolve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/invariants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The scheduled money invariant check: its current result (a violation pauses payouts) and a page of its history, newest first (platform read) */
        get: operations["AdminInvariantsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Payouts and settlements not final yet, oldest first, with their age: withdrawals and refunds not sent, settlements not final, chain transactions undecided (platform read) */
        get: operations["AdminPendingController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/queues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each job queue's jobs by state and the age of its oldest waiting job (platform read) */
        get: operations["AdminQueuesController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/refunds/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a failed refund again now, or a held one (below the dust floor) alone on request (platform action); the worker also retries failed ones with backoff */
        post: operations["AdminRefundsController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/test-clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Local settlement only: move time forward by `seconds` for what waits on it (escrow holds, dispute response and filing windows, the withdrawal reserve, payout retries), then do the work now due */
        post: operations["AdminTestClockController_advance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhook subscriptions marked failed (deliveries stopped), most recently failed first, with their failed attempts; never their secrets (platform read) */
        get: operations["AdminWebhooksController_failed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register an agent (registration fee 0.10 USDC) */
        post: operations["AgentsController_register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agentId}/capabilities/{capabilityId}/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Execute one capability, paid with x402; the body is the capability's input
         * @description The capability's own x402 resource: the same admission, payment, charge, idempotency and errors as POST /execute, and its 402 names this URL (with a Bazaar discovery extension).
         */
        post: operations["CapabilityExecuteController_execute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an agent */
        get: operations["AgentsController_get"];
        put?: never;
        post?: never;
        /** Deactivate an agent (wallet-signed); it is kept, with status inactive */
        delete: operations["AgentsController_deactivate"];
        options?: never;
        head?: never;
        /** Update an agent (wallet-signed) */
        patch: operations["AgentsController_update"];
        trace?: never;
    };
    "/api/v1/agents/{id}/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An agent's executions (failed ones too), newest first, paged, optionally one status or capability
         * @description For the agent's wallet only: its signature (the unbound read message is enough) or its console session signed in as the agent.
         */
        get: operations["ExecutionListsController_agent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's health and its probe history by the hour (last 7 days) */
        get: operations["AgentsController_health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/agent/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's executions, earnings, performance, disputes and reputation over a rolling period */
        get: operations["AnalyticsController_agent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/agent/{agentId}/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's executions, success rate, latency percentiles, volume and earnings per hour or day */
        get: operations["AnalyticsController_agentSeriesOf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/platform/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The platform's executions, volume, buyers and sellers per hour or day */
        get: operations["AnalyticsController_platform"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chains/budget-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Estimate what a chain at this agent may cost, and a budget for it (free) */
        post: operations["ChainsController_budget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chains/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public keys that verify chain tokens (the current key, and previous ones still valid) */
        get: operations["ChainsController_keys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chains/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A chain: status, totals and its trace tree (by chain id, root requestId or root transactionId)
         * @description Free. The same chain whichever id names it. Every node is listed with its transactionId (and the root's as rootTransactionId), for any reader; its requestId (and rootRequestId) only to a reader who may read its execution: the paying wallet (X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<EIP-191 signature>, or its console session), all of them; an X-Chain-Token whose execution still runs, its own and those below it (a token handed to the root's caller, all of them); otherwise none. A payment header shows none: the one that paid for the chain is settled on chain, and a standard client's header is rebuilt from that public calldata.
         */
        get: operations["ChainsController_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chains/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a chain now: the root's caller is done with its tokens
         * @description With a token handed to the root's caller (the chain root's answer, or an answer to one of its calls): every such token is refused from now on, and the chain closes at once when nothing runs (its unspent budget refunded before the answer), else when the last running call ends. Answers the chain as GET /chains/{id} shows it to its payer. Closing a closed chain changes nothing.
         */
        post: operations["ChainsController_close"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chains/{id}/cost": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A chain's cost: platform fees, agent fees and cuts, by agent and by depth */
        get: operations["ChainsController_cost"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/console/nonce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A nonce for a sign-in message, with the domain and URI the message must name */
        post: operations["ConsoleAuthController_nonce"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/console/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session this request signed in with */
        get: operations["ConsoleAuthController_current"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/console/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in wallet's sessions, newest first, revoked and expired ones included */
        get: operations["ConsoleAuthController_list"];
        put?: never;
        /**
         * Sign in: a signed EIP-4361 message becomes a read session (cookie agora_session, HTTP-only, SameSite=Strict)
         * @description Only from this deployment’s origin (the Origin header). The message’s nonce is used once. 401 for a message or signature that does not check (details.reason), 403 for an agent grant not signed by the agent’s wallet.
         */
        post: operations["ConsoleAuthController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/console/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the signed-in wallet's sessions (its own included: that signs out) */
        delete: operations["ConsoleAuthController_revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/discover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Find active agents by capability name, price and reputation */
        get: operations["DiscoveryController_discover"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/discover/recommend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recommend agents for a natural-language request */
        get: operations["DiscoveryController_recommend"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dispute a charged transaction (its payer only, once, within 7 days): the agent's earnings of it are frozen
         * @description Proof of being the payer: X-Client-Wallet + X-Client-Signature (what the SDK and CLI send), or the original payment header (X-PAYMENT or PAYMENT-SIGNATURE). In evm settlement a payment header can be rebuilt by anyone from the settlement on chain, so a filing proved only by it is unverified (deprecated since API 1.2.0: such a response carries `Deprecation` and `Link` headers, RFC 9745): it freezes the earnings and the agent may answer, but it moves no reputation, gives no evidence key, and is not resolved client_wins when the response window closes (an admin decides it). The payer confirms it by filing again with its signature: the dispute becomes verified (instead of 409 DISPUTE_EXISTS), with a full response window from then. In local settlement the header proves the payer as before.
         */
        post: operations["DisputesController_file"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/disputes/agent/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's disputes, newest first (status filter, paging, total) */
        get: operations["DisputesController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/disputes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One dispute, with the evidence the platform holds about the execution */
        get: operations["DisputesController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/disputes/{id}/evidence-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The key of the evidence hashes, for the disputed agent's wallet (the payer gets it when it files)
         * @description inputHash and outputHash are HMAC-SHA256 (hex) under this key of the SHA-256 hex of the canonical JSON: recompute them from what was sent and answered.
         */
        get: operations["DisputesController_evidenceKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/disputes/{id}/respond": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The disputed agent's answer (wallet-signed by the agent's wallet; once, within the response window) */
        post: operations["DisputesController_respond"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signing agent's domain events (what its webhooks are sent), oldest first, after a cursor (wallet-signed; a signature may be reused for reads within its window) */
        get: operations["EventsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Execute a capability, paid with x402 (X-PAYMENT or PAYMENT-SIGNATURE) */
        post: operations["ExecutionController_execute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/execute/{id}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What happened to an execution and its money, by request id or transaction id, with each step's time
         * @description Received, paid (or funded from its chain), running, its outcome, settled (with the transaction), held in escrow and released, disputed and resolved, refunds issued and sent. Public like the status: no payer, input or output.
         */
        get: operations["TimelineController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/execute/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Execution status; output only to its payer: the original payment header (an execution in a chain: the header that paid for the chain, or a token of an execution above it), or the payer's own signature or console session
         * @description A chain token (X-Chain-Token) reads the executions below its holder's (the one it was issued to), never the chain's root, and only while its holder runs: any other is 403 FORBIDDEN (details.reason: holder_ended, root, outside_subtree). The payer may read without its payment header: X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<EIP-191 signature> by the paying wallet (within the auth window; a malformed or stale one is 401, a forged one 403), or its console session signed in as that paying wallet (another wallet's signature or session reads as a visitor, without the output). An execution in a chain is the root payer's. The request id is told to the payer only (and, in a chain, to the tokens that may read it, and to the agent that ran it).
         */
        get: operations["ExecutionController_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/execute/{requestId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retry a failed or timed-out execution with its stored authorization (no new charge). No request data is needed; the output is in the answer only with the original payment header (another payment header is 403) */
        post: operations["ExecutionController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/feed/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Executions outside chains as they end, as server-sent events: `execution` events (public fields only: no input, output, payer or payment header) and a `ping` every 15 s; at most FEED_MAX_PER_IP streams per address */
        get: operations["FeedController_executions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API readiness: Postgres and Redis reachable, and the worker's last invariant check passed (payouts are paused while it fails) */
        get: operations["HealthController_check"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers (no dependency is checked; restart it only when this fails) */
        get: operations["HealthController_live"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: Postgres and Redis reachable, no migration pending, and payouts not paused by a failed invariant check */
        get: operations["HealthController_ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/worker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Worker liveness, from the heartbeat the worker writes to Redis */
        get: operations["HealthController_worker"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payers/{wallet}/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The disputes a paying wallet filed, newest first (status filter, paging, total)
         * @description For that wallet only: with its console session (cookie agora_session), or X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<signature> (EIP-191, within the auth window).
         */
        get: operations["PayerDisputesController_disputes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payers/{wallet}/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A paying wallet's own executions, newest first, paged, optionally one status or capability
         * @description For that wallet only: with its console session (cookie agora_session), or X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<signature> (EIP-191, within the auth window).
         */
        get: operations["ExecutionListsController_payer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/balance/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's balance: available, in escrow, totals */
        get: operations["PaymentsController_balance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/history/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's transactions, newest first, optionally one status or capability (wallet-signed; a signature may be reused for reads within its window; or the agent's console session) */
        get: operations["PaymentsController_history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Platform totals (served by analytics from rollups the database keeps; no scan of the history) */
        get: operations["PaymentsController_stats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/status/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What became of a payment (public): by settlement transaction hash, authorization nonce or payment identifier
         * @description Each matching payment with its status (settled, settlement_pending, failed, released, refunded), network, transaction hash when known, payer, amount, request id (the payer's only) and times. Never an output, a signature or a header. A nonce or a payment identifier is looked up for one payer (`payer`, required with an identifier); without it a 0x reference is a transaction hash. The idempotency keys a payer used and its request ids are told only to that payer: with `payer` and the payer's proof (X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<EIP-191 signature>, within the auth window, or its console session signed in as that paying wallet) an identifier is looked up and requestId given; without one, an identifier is 404 NOT_FOUND as an unknown one and every requestId is null (a malformed or stale signature is 401, a forged one 403; another wallet's proof gets the public answer).
         */
        get: operations["PaymentsController_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/tx/{txId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One transaction */
        get: operations["PaymentsController_transaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Withdraw available balance to a wallet (wallet-signed; minimum 1.00, fee 0.10) */
        post: operations["PaymentsController_withdraw"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/withdrawal/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One withdrawal */
        get: operations["PaymentsController_withdrawal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/withdrawals/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's withdrawals with a summary */
        get: operations["PaymentsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/platform/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public keys: X-Agora-Signature on calls from the platform, and the signed x402 offers and receipts (current first) */
        get: operations["ExecutionController_keys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/receipts/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Checks a signed receipt: its signature under a published key, its shape, and the output and input given */
        post: operations["ReceiptsController_verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reputation/leaderboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active agents ranked by reputation, then executions */
        get: operations["ReputationController_top"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reputation/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's score, tier, newest events and breakdown */
        get: operations["ReputationController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Subscribe an HTTPS URL to events of an agent (wallet-signed) */
        post: operations["WebhooksController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/agent/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An agent's webhooks (secrets are never returned)
         * @description Public. Without the agent's wallet signature (or its console session) each `url` is its origin only, `https://host[:port]/` (no path or query: they may hold the receiver's token; WEBHOOK_LIST_URLS=full shows them whole to everyone); with it, the whole URL. Headers present but wrong: 401/403.
         */
        get: operations["WebhooksController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook (wallet-signed); attempts not yet sent are cancelled */
        delete: operations["WebhooksController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery attempts of a webhook, newest first (wallet-signed; the signature may be reused within its window) */
        get: operations["WebhooksController_deliveryLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a past delivery again now, as one attempt outside the schedule (wallet-signed) */
        post: operations["WebhooksController_redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/llms.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** llms.txt: the API and the best-ranked capabilities, for language models */
        get: operations["ManifestsController_llms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/x402/discovery/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every capability as an x402 resource, best-ranked agents first (offset paging) */
        get: operations["X402DiscoveryController_resources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/x402/discovery/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** x402 resources for a natural-language query, ranked by the recommend engine */
        get: operations["X402DiscoveryController_search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AdminDisputeListResponse: {
            disputes: components["schemas"]["AdminDisputeResponse"][];
            /** @description Disputes awaiting a decision (pending or responded) */
            total: number;
        };
        AdminDisputeResponse: {
            /** @description For each outcome that refunds, the part of the earnings the agent had already withdrawn (frozenAmount does not cover it): with advance true the platform refunds it now and the agent owes it to the platform; with advance false (the default) it is the agent's debt to the payer, refunded as its later earnings repay it. 0.000000: advance changes nothing */
            advanceable: components["schemas"]["DisputeAdvanceableResponse"];
            /** @description What an admin's resolution advanced of the earnings the agent had withdrawn (owed by the agent to the platform) */
            advancedAmount: string;
            /**
             * @description The agent's earnings of the transaction (the fee less the platform's cut)
             * @example 0.009500
             */
            agentEarnings: string;
            agentEvidence: string | null;
            /**
             * @description The transaction's agent fee: what client_wins gives back to the payer (split: half)
             * @example 0.010000
             */
            agentFee: string;
            /** Format: uuid */
            agentId: string;
            agentResponse: string | null;
            /** @description The client: the payer wallet */
            clientId: string;
            createdAt: string;
            evidence: string | null;
            /** @description What the agent still held of the transaction's earnings at filing (escrow, else available), frozen while the dispute is open */
            frozenAmount: string;
            id: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            /** @description Of refundAmount, what the agent still owes the client: earnings it had withdrawn, refunded as its next earnings repay them */
            outstandingAmount: string;
            platformEvidence: components["schemas"]["PlatformEvidenceResponse"];
            reason: string;
            /** @description Of refundAmount, what has been refunded to the client so far (at resolution, and from the agent's repayments since) */
            refundedAmount: string;
            resolution: components["schemas"]["DisputeResolutionResponse"] | null;
            resolvedAt: string | null;
            respondBy: string;
            respondedAt: string | null;
            /** @enum {string} */
            status: "pending" | "responded" | "resolved";
            transactionId: string;
            /** @description Whether the filer proved it is the payer: false for a filing proved only by a payment header on a public chain (evm), which moves no reputation and is not resolved client_wins by the deadline until the payer's signature confirms it */
            verified: boolean;
        };
        AdvanceTestClockDto: {
            /**
             * @description How far to move the clock, in seconds
             * @example 86400
             */
            seconds: number;
        };
        AgentAnalyticsResponse: {
            /** Format: uuid */
            agentId: string;
            disputes: components["schemas"]["DisputeStats"];
            earnings: components["schemas"]["EarningsStats"];
            executions: components["schemas"]["ExecutionsStats"];
            performance: components["schemas"]["PerformanceStats"];
            /** @enum {string} */
            period: "day" | "week" | "month" | "all";
            reputation: components["schemas"]["ReputationStats"];
        };
        AgentCardResponse: {
            capabilities: {
                [key: string]: unknown;
            };
            defaultInputModes: string[];
            defaultOutputModes: string[];
            description: string;
            documentationUrl: string;
            /** @example agora */
            name: string;
            provider: {
                [key: string]: unknown;
            };
            securityRequirements: {
                [key: string]: unknown;
            }[];
            securitySchemes: {
                [key: string]: unknown;
            };
            signatures: {
                [key: string]: unknown;
            }[];
            /** @description The best-ranked capabilities (at most 50) */
            skills: components["schemas"]["AgentSkillDto"][];
            /** @description The interface agora serves: {url: <base>/api/v1/execute, protocolBinding: the x402 v2 HTTP transport spec URI, protocolVersion: "1.0"}; no A2A message binding */
            supportedInterfaces: {
                [key: string]: unknown;
            }[];
            /** @example 1 */
            version: string;
        };
        AgentEventResponse: {
            createdAt: string;
            /** @description This event's place in the list: pass it as `after` to read what follows */
            cursor: string;
            /** @description The payload its webhooks are sent */
            data: {
                [key: string]: unknown;
            };
            /** @example evt_... */
            id: string;
            /** @enum {string} */
            type: "execution.completed" | "execution.failed" | "dispute.filed" | "dispute.resolved" | "escrow.released" | "withdrawal.completed" | "withdrawal.failed" | "agent.health_changed";
        };
        AgentEventsResponse: {
            events: components["schemas"]["AgentEventResponse"][];
            /** @description The cursor to poll with next (the last event, or `after` again when the page is empty) */
            nextCursor: string | null;
        };
        AgentExecutionsResponse: {
            /** @description Newest first */
            executions: components["schemas"]["ExecutionListItemDto"][];
            /** @description The cursor of the next page; null on the last */
            next: string | null;
        };
        AgentHealthHistoryResponse: {
            /** Format: uuid */
            agentId: string;
            health: components["schemas"]["AgentHealthResponse"];
            /** @description The last 7 days by the hour, oldest first (at most 168); hours without probes are absent */
            hours: components["schemas"]["HealthHourResponse"][];
        };
        AgentHealthResponse: {
            /** Format: date-time */
            checkedAt: string | null;
            lastError: string | null;
            lastLatencyMs: number | null;
            /** @enum {string} */
            status: "up" | "down" | "unknown";
            /** @description Share of probes that succeeded over 24 h; null before any */
            uptime24h: number | null;
            /** @description Share of probes that succeeded over 7 days */
            uptime7d: number | null;
        };
        AgentResponse: {
            capabilities: components["schemas"]["CapabilityResponse"][];
            chainSettings: components["schemas"]["ChainSettingsResponse"];
            /** Format: date-time */
            created_at: string;
            description: string | null;
            endpoints: components["schemas"]["EndpointsResponse"];
            health: components["schemas"]["AgentHealthResponse"];
            /** Format: uuid */
            id: string;
            /** @description Why the platform set the agent inactive (its health) */
            inactiveReason: string | null;
            metadata: {
                [key: string]: unknown;
            };
            name: string;
            reputation_score: number;
            /** @enum {string} */
            status: "active" | "inactive" | "suspended";
            /** Format: date-time */
            updated_at: string;
            wallet: string;
        };
        AgentSeriesPointDto: {
            /**
             * Format: date-time
             * @description The bucket start (UTC)
             */
            at: string;
            /**
             * @description The agent's share of it (agent fee minus the platform's cut)
             * @example 0.099500
             */
            earnings: string;
            /** @description The agent's executions that ended in the bucket */
            executions: number;
            /** @description Over successful runs: each percentile as the upper bound of its histogram bucket (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70 ms ... 1,000 s); null without a success */
            latencyMs: components["schemas"]["LatencyPercentiles"] | null;
            succeeded: number;
            /** @description Percentage, two decimals; null when none ended */
            successRate: number | null;
            /**
             * @description USDC charged for the agent's executions in the bucket
             * @example 0.110000
             */
            volume: string;
        };
        AgentSeriesResponse: {
            /** Format: uuid */
            agentId: string;
            /** @enum {string} */
            bucket: "hour" | "day";
            /**
             * Format: date-time
             * @description Every execution and charge before this time is counted (the worker rolls them up every few seconds); null before the first roll-up
             */
            completeTo: string | null;
            /**
             * Format: date-time
             * @description The first bucket
             */
            from: string;
            /** @description One per bucket, oldest first */
            points: components["schemas"]["AgentSeriesPointDto"][];
            /**
             * Format: date-time
             * @description The end of the last bucket (excluded)
             */
            to: string;
        };
        AgentSkillDto: {
            /** @description What it does, its price and its resource URL */
            description: string;
            examples: string[];
            /** @example {agentId}/translate */
            id: string;
            inputModes: string[];
            name: string;
            outputModes: string[];
            securityRequirements: {
                [key: string]: unknown;
            }[];
            tags: string[];
        };
        AsyncAcceptedResponse: {
            /** @description A chain root's: its chain (GET /api/v1/chains/{chainId}; the requestId too) */
            chainId?: string;
            /** @description The execution id (same as requestId) */
            jobId: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            /** @description The execution id: GET /api/v1/execute/{requestId} reads it */
            requestId: string;
            /** @description A paid run whose payment was written but whose end could not be recorded or read back (the database failed): what is known of the payment (settlement_pending, or the outcome once known); the statusUrl, read as the payer, follows it. Never a reason to pay again */
            settlement?: components["schemas"]["SettlementResponse"];
            /** @example pending */
            status: string;
            /**
             * @description Absolute URL of the status (also in the Location header)
             * @example https://agora.example.com/api/v1/execute/req_...
             */
            statusUrl: string;
        };
        BalanceResponse: {
            /** Format: uuid */
            agentId: string;
            /**
             * @description Released earnings (withdrawable, less what is reserved)
             * @example 1.234500
             */
            available: string;
            escrow: components["schemas"]["EscrowSummaryResponse"];
            executionCount: number;
            /**
             * @description What the agent owes on disputes it lost after withdrawing the earnings; repaid from its next earnings first
             * @example 0.000000
             */
            owed: string;
            /**
             * @description In escrow
             * @example 0.095000
             */
            pending: string;
            /**
             * @description Of available, the earnings the rolling reserve keeps while their transactions can still be disputed (0 for an agent with an established record)
             * @example 0.500000
             */
            reserved: string;
            /**
             * Format: date-time
             * @description When all of the reserved amount is free
             */
            reservedUntil: string | null;
            totalDisputed: string;
            totalEarned: string;
            totalWithdrawn: string;
        };
        BudgetBreakdownResponse: {
            /** @description 20% buffer */
            contingency: string;
            /** @description Platform fee + agent base price (the cap for variable pricing) */
            directCost: string;
            /** @description (estimatedDepth - 1) calls of the same cost, when includeSubAgentCosts */
            estimatedSubAgentCosts: string;
            /** @description Platform fee + platform cut */
            platformFees: string;
        };
        BudgetCapabilityResponse: {
            basePrice: string;
            id: string;
            name: string;
        };
        BudgetCheckDto: {
            /** @example translate */
            capabilityId: string;
            /**
             * @description Levels of calls expected, the root included
             * @default 1
             */
            estimatedDepth: number;
            /** @default true */
            includeSubAgentCosts: boolean;
            input: {
                [key: string]: unknown;
            };
            /** Format: uuid */
            targetAgentId: string;
        };
        BudgetCheckResponse: {
            breakdown: components["schemas"]["BudgetBreakdownResponse"];
            capability: components["schemas"]["BudgetCapabilityResponse"];
            estimatedTotal: string;
            /** @description 50% above the estimate */
            recommendedBudget: string;
            warnings: string[];
        };
        CapabilityDto: {
            /** @example Translates text between English, French and Spanish */
            description: string;
            /**
             * @description Unique within the agent; letters, digits, . _ : -
             * @example translate
             */
            id: string;
            /** @description JSON Schema for input */
            inputSchema?: {
                [key: string]: unknown;
            };
            /** @example Translate text */
            name: string;
            /** @description JSON Schema for output */
            outputSchema?: {
                [key: string]: unknown;
            };
            pricing: components["schemas"]["PricingDto"];
        };
        CapabilityResponse: {
            description: string;
            id: string;
            inputSchema?: {
                [key: string]: unknown;
            };
            name: string;
            outputSchema?: {
                [key: string]: unknown;
            };
            pricing: components["schemas"]["PricingResponse"];
        };
        ChainCostResponse: {
            breakdown: components["schemas"]["CostBreakdownResponse"];
            byAgent: components["schemas"]["CostByAgentResponse"][];
            byDepth: components["schemas"]["CostByDepthResponse"][];
            /** Format: uuid */
            chainId: string;
            rootTransactionId: string | null;
            /** @description platformFees + agentFees; byAgent and byDepth each sum to it */
            totalCost: string;
        };
        ChainKeyJwk: {
            /** @example Ed25519 */
            crv: string;
            /** @example OKP */
            kty: string;
            /** @description Raw public key, base64url */
            x: string;
        };
        ChainKeyResponse: {
            /** @example Ed25519 */
            alg: string;
            /** @description For node:crypto: createPublicKey({ key: jwk, format: 'jwk' }) */
            jwk: components["schemas"]["ChainKeyJwk"];
            /** @description Key id: the first 16 hex characters of the sha256 of the raw public key */
            kid: string;
            /** @description Raw 32-byte public key, base64 */
            publicKey: string;
            /**
             * @description current signs new tokens; previous keys still verify
             * @enum {string}
             */
            status: "current" | "previous";
        };
        ChainKeysResponse: {
            /** @description A token is `<base64url(payload JSON)>.<base64url(signature)>`; the Ed25519 signature is over the ASCII bytes of the payload part */
            keys: components["schemas"]["ChainKeyResponse"][];
        };
        ChainNodeResponse: {
            /** Format: uuid */
            agentId: string;
            agentName: string | null;
            capabilityId: string;
            children: components["schemas"]["ChainNodeResponse"][];
            completedAt: string | null;
            /** @description Charged (platform fee + agent fee); the reservation while running; 0 once refunded */
            cost: string;
            depth: number;
            executionTimeMs: number | null;
            /**
             * @description Only when the reader may read this execution: the paying client, or a chain token of an execution above it (null otherwise)
             * @example req_...
             */
            requestId: string | null;
            /** @description W3C span id of the call to this agent (its traceparent) */
            spanId: string;
            startedAt: string;
            /**
             * @description refunded: the node failed and its reservation went back to the budget
             * @enum {string}
             */
            status: "running" | "completed" | "refunded";
            /**
             * @description The charge (tx_...), once completed; shown to every reader (it reads no output)
             * @example tx_...
             */
            transactionId: string | null;
        };
        ChainParamsDto: {
            /**
             * @description USDC the root agent may spend on sub-calls: 0.01-1000.00, default 10.00; paid with the root cost in one payment, the unspent part refunded
             * @example 10.00
             */
            budget?: string;
            /** @description At most 5 and at most the root agent's chain_max_depth (its value by default) */
            maxDepth?: number;
        };
        ChainRefundResponse: {
            amount: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            /** @example rfd_... */
            refundId: string;
        };
        ChainResponse: {
            /** Format: uuid */
            chainId: string;
            /** @description On success, a fresh token (CHAIN_TOKEN_TTL_S, 30 s by default) for the caller's next calls in the chain with X-Chain-Token: an agent's own calls, or, in the chain root's answer and the answers to its calls, the root's caller's (calls at depth 1; the chain stays open while such a token is valid) */
            childToken?: string;
            /** @description Depth of this execution (0 = the root) */
            depth: number;
            /** @description What the chain budget has left after this call */
            remainingBudget: string;
        };
        ChainSettingsDto: {
            /** @description Agent IDs allowed to call this agent in chains (empty: all) */
            chain_allowed_callers?: string[];
            /** @description Agent IDs never allowed to call this agent in chains */
            chain_blocked_callers?: string[];
            /** @description Allow being called in chains */
            chain_enabled?: boolean;
            /** @description Max depth when this agent is root */
            chain_max_depth?: number;
        };
        ChainSettingsResponse: {
            chain_allowed_callers: string[];
            chain_blocked_callers: string[];
            chain_enabled: boolean;
            chain_max_depth: number;
        };
        ChainStatusResponse: {
            budget: string;
            /** Format: uuid */
            chainId: string;
            /**
             * Format: date-time
             * @description When the chain closes if nothing more runs: the expiry of the last token handed to the root's caller, at most the chain's time limit; once closed, when it closed
             */
            closesAt: string | null;
            /** @description When the chain closed (its unspent budget refunded) */
            completedAt: string | null;
            maxDepth: number;
            maxDepthReached: number;
            nodeCount: number;
            /** @description What the budget had left, refunded to the root wallet when the chain ended */
            refund?: components["schemas"]["ChainRefundResponse"];
            remainingBudget: string;
            /**
             * @description Only for the paying client (null otherwise)
             * @example req_...
             */
            rootRequestId: string | null;
            /**
             * @description The root's charge (tx_...), once completed; shown to every reader, and GET /chains/{rootTransactionId} answers this chain
             * @example tx_...
             */
            rootTransactionId: string | null;
            startedAt: string;
            /**
             * @description As its nodes stand: running while one runs, then completed (all succeeded), partial or failed, also while the chain is held open for the root's caller; pending until its payment is funded
             * @enum {string}
             */
            status: "pending" | "running" | "completed" | "failed" | "partial";
            totalCost: string;
            /** @description Wall clock from the chain's start to its last node's end */
            totalExecutionTimeMs: number;
            /** @description W3C trace id shared by every call in the chain */
            traceId: string;
            tree: components["schemas"]["ChainNodeResponse"] | null;
        };
        ConsoleSessionListResponse: {
            /** @description Newest first, at most 100 */
            sessions: components["schemas"]["ConsoleSessionResponse"][];
        };
        ConsoleSessionResponse: {
            /**
             * Format: uuid
             * @description Signed in as this agent (else as a wallet)
             */
            agentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description This request's own session */
            current: boolean;
            /** Format: date-time */
            expiresAt: string;
            /** @example cs_3s0Gm1uQk0aZx1bq */
            id: string;
            origin: string;
            /** Format: date-time */
            revokedAt: string | null;
            userAgent: string | null;
            /** @description Lower-case address that signed in */
            wallet: string;
        };
        CostBreakdownResponse: {
            /** @description Total paid to agents (before the cut) */
            agentFees: string;
            /** @description 5% of the agent fees */
            platformCuts: string;
            /** @description 0.001 per completed execution */
            platformFees: string;
        };
        CostByAgentResponse: {
            /** Format: uuid */
            agentId: string;
            agentName: string | null;
            /** @description After the platform cut */
            earnings: string;
            executionCount: number;
            totalCost: string;
        };
        CostByDepthResponse: {
            depth: number;
            nodeCount: number;
            totalCost: string;
        };
        CostResponse: {
            /** @description Agent fee charged (for variable pricing: the cap until the run is metered) */
            agentFee: string;
            /** @description Variable pricing: what the payment authorized (platform fee + maxPrice) */
            authorized?: string;
            /** @description Variable pricing: the cap on the agent fee (capability maxPrice) */
            maxPrice?: string;
            platformFee: string;
            /** @enum {string} */
            pricingModel: "per-request" | "per-token" | "per-minute" | "dynamic";
            /** @description Variable pricing, once charged: authorized - total, sent back to the payer */
            refunded?: string;
            total: string;
        };
        CreateWebhookDto: {
            /** Format: uuid */
            agentId: string;
            events: ("execution.completed" | "execution.failed" | "dispute.filed" | "dispute.resolved" | "escrow.released" | "withdrawal.completed" | "withdrawal.failed" | "agent.health_changed")[];
            /** @description Signs deliveries (X-Signature; webhook-signature). 24-256 printable characters; a Standard Webhooks secret `whsec_<base64>` (canonical base64 of 24-64 bytes, else 400) is used as its decoded bytes. Never returned. */
            secret?: string;
            /**
             * @description HTTPS; checked by the outbound guard now and at every delivery
             * @example https://hooks.example.com/agora
             */
            url: string;
        };
        DeleteAgentResponse: {
            /** Format: uuid */
            id: string;
            message: string;
        };
        DeliveryListResponse: {
            deliveries: components["schemas"]["DeliveryResponse"][];
            total: number;
        };
        DeliveryResponse: {
            /** @description 1-5 on the retry schedule */
            attempt: number;
            attemptedAt: string | null;
            /** @description The JSON body sent (signed as it is) */
            body: string | null;
            /** @example dlv_... */
            deliveryId: string;
            durationMs: number | null;
            error: string | null;
            /** @example evt_... */
            eventId: string;
            eventType: string;
            /** @description A manual redelivery (one attempt, outside the schedule) */
            manual: boolean;
            /** @description The receiver's answer, its first 2 KB */
            responseBody: string | null;
            responseStatus: number | null;
            scheduledAt: string;
            /** @enum {string} */
            status: "pending" | "sending" | "succeeded" | "failed" | "cancelled";
        };
        DiscoverResponse: {
            agents: components["schemas"]["DiscoveredAgentResponse"][];
            limit: number;
            offset: number;
            /** @description Matching agents: exact up to 1000; 1000 with totalExact false means at least 1000 */
            total: number;
            /** @description false when the total saturated at 1000 (there are at least that many) */
            totalExact: boolean;
        };
        DiscoveredAgentResponse: {
            capabilities: components["schemas"]["DiscoveredCapabilityResponse"][];
            description: string | null;
            health: components["schemas"]["AgentHealthResponse"];
            /** Format: uuid */
            id: string;
            name: string;
            reputation_score: number;
            status: string;
        };
        DiscoveredCapabilityResponse: {
            id: string;
            name: string;
            pricing: components["schemas"]["PricingResponse"];
        };
        DiscoveryInputDto: {
            /** @description JSON Schema of the body (its example when none was declared) */
            body?: {
                [key: string]: unknown;
            };
            /** @example json */
            bodyType?: string;
            /** @example POST */
            method: string;
            /** @description JSON Schema of the path parameters */
            pathParams?: {
                [key: string]: unknown;
            };
            /** @description The route template of the resource's Bazaar extension; agora's carry none (each capability is its own URL) */
            routeTemplate?: string;
        };
        DiscoveryManifestItem: {
            /** @description The v2 PaymentRequirements of its 402 */
            accepts: {
                [key: string]: unknown;
            }[];
            input: components["schemas"]["DiscoveryInputDto"];
            output?: components["schemas"]["DiscoveryOutputDto"];
            requires?: string[];
            resource: components["schemas"]["DiscoveryManifestResourceInfo"];
            /** @example http */
            type: string;
        };
        DiscoveryManifestLinks: {
            resources: string;
            search: string;
        };
        DiscoveryManifestResourceInfo: {
            description?: string;
            mimeType?: string;
            serviceName?: string;
            tags?: string[];
            url: string;
        };
        DiscoveryOutputDto: {
            /** @description An example output */
            example?: Record<string, never>;
            /** @example application/json */
            mimeType?: string;
            /** @description JSON Schema of the output */
            schema?: {
                [key: string]: unknown;
            };
        };
        DisputeAdvanceableResponse: {
            /**
             * @description With resolution client_wins
             * @example 0.004750
             */
            client_wins: string;
            /**
             * @description With resolution split
             * @example 0.002375
             */
            split: string;
        };
        DisputeEvidenceKeyResponse: {
            disputeId: string;
            /** @description HMAC-SHA256 key (64 hex) of platformEvidence.facts.inputHash and outputHash */
            evidenceKey: string;
            transactionId: string;
        };
        DisputeListItemResponse: {
            /** Format: uuid */
            agentId: string;
            createdAt: string;
            id: string;
            reason: string;
            respondBy: string;
            /** @enum {string} */
            status: "pending" | "responded" | "resolved";
            transactionId: string;
        };
        DisputeListResponse: {
            disputes: components["schemas"]["DisputeListItemResponse"][];
            total: number;
        };
        DisputeResolutionResponse: {
            /** @description Whether the admin advanced what the agent had withdrawn */
            advance?: boolean;
            note: string | null;
            /** @enum {string} */
            outcome: "agent_wins" | "client_wins" | "split";
            /** @description What the resolution gives back to the client (of the agent fee); see refundedAmount and outstandingAmount for how much has been paid */
            refundAmount: string;
            /** @description Released to the agent (its debts repaid first) */
            releasedAmount: string;
            /**
             * @description admin, or system:timeout when the agent did not respond in time
             * @example admin
             */
            resolvedBy: string;
        };
        DisputeResponse: {
            /** @description What an admin's resolution advanced of the earnings the agent had withdrawn (owed by the agent to the platform) */
            advancedAmount: string;
            agentEvidence: string | null;
            /** Format: uuid */
            agentId: string;
            agentResponse: string | null;
            /** @description The client: the payer wallet */
            clientId: string;
            createdAt: string;
            evidence: string | null;
            /** @description What the agent still held of the transaction's earnings at filing (escrow, else available), frozen while the dispute is open */
            frozenAmount: string;
            id: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            /** @description Of refundAmount, what the agent still owes the client: earnings it had withdrawn, refunded as its next earnings repay them */
            outstandingAmount: string;
            platformEvidence: components["schemas"]["PlatformEvidenceResponse"];
            reason: string;
            /** @description Of refundAmount, what has been refunded to the client so far (at resolution, and from the agent's repayments since) */
            refundedAmount: string;
            resolution: components["schemas"]["DisputeResolutionResponse"] | null;
            resolvedAt: string | null;
            respondBy: string;
            respondedAt: string | null;
            /** @enum {string} */
            status: "pending" | "responded" | "resolved";
            transactionId: string;
            /** @description Whether the filer proved it is the payer: false for a filing proved only by a payment header on a public chain (evm), which moves no reputation and is not resolved client_wins by the deadline until the payer's signature confirms it */
            verified: boolean;
        };
        DisputeStats: {
            lost: number;
            pending: number;
            /** @description Disputes per successful execution, percentage */
            rate: number;
            total: number;
            won: number;
        };
        EarningsStats: {
            /**
             * @description What clients paid (platform fee + agent fee)
             * @example 1.050000
             */
            gross: string;
            /**
             * @description The agent's earnings (gross - platformFees)
             * @example 0.997500
             */
            net: string;
            /**
             * @description Platform fee + the 5% cut of the agent fee
             * @example 0.052500
             */
            platformFees: string;
        };
        EndpointsDto: {
            /**
             * @description HTTPS URL that receives POST requests
             * @example https://agent.example.com/execute
             */
            execution: string;
            /** @example https://agent.example.com/health */
            health?: string;
        };
        EndpointsResponse: {
            execution: string;
            health?: string;
        };
        EscrowSummaryResponse: {
            pendingCount: number;
            /** @example 0.000000 */
            pendingTotal: string;
        };
        ExecuteDto: {
            /** @description Where the result is posted when complete (HTTPS) */
            callbackUrl?: string;
            /** @example translate */
            capabilityId: string;
            /** @description Open an execution chain: the payment covers the root cost plus the budget */
            chain?: components["schemas"]["ChainParamsDto"];
            /** @description Scoped to the payer wallet; bound to agent, capability and input; kept 24 h */
            idempotencyKey?: string;
            /** @description Validated against the capability's inputSchema */
            input: {
                [key: string]: unknown;
            };
            /** Format: uuid */
            targetAgentId: string;
            /** @description Alternative name for callbackUrl */
            webhookUrl?: string;
        };
        ExecutionListItemDto: {
            /**
             * @description USDC: the agent's fee
             * @example 0.010000
             */
            agentFee: string;
            /** Format: uuid */
            agentId: string;
            agentName: string | null;
            capabilityId: string;
            /** Format: date-time */
            completedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description A signed receipt is kept (shown with the output to its payer) */
            hasReceipt: boolean;
            /** @description ms */
            latencyMs: number | null;
            /** @description The paying wallet (or calling agent), lower-case */
            payer: string | null;
            requestId: string;
            settlementStatus: string | null;
            /** @enum {string} */
            status: "pending" | "completed" | "failed" | "timeout" | "refunded";
            /**
             * @description USDC: platform fee + agent fee
             * @example 0.011000
             */
            total: string;
            transactionId: string | null;
        };
        ExecutionResponse: {
            /** @description A chain root or a chained call */
            chain?: components["schemas"]["ChainResponse"];
            cost: components["schemas"]["CostResponse"];
            /** @description ms */
            executionTime: number | null;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            message?: string;
            output?: {
                [key: string]: unknown;
            };
            /** @description True (else absent) once the input and output were deleted after the retention period (EXECUTION_PAYLOAD_RETENTION_DAYS): no output is answered; the row, its money and the hashes in dispute evidence stay */
            outputPruned?: boolean;
            /** @description The signed receipt (x402 offer-receipt) of a settled x402 payment, shown with the output: the payment, the fee split and the hashes of the input and output (docs/receipts.md) */
            receipt?: components["schemas"]["SignedReceiptResponse"];
            /** @description The receipt's salt, beside it and to its payer only: a version 3 or 4 receipt's inputHash and contentHash (and version 4's requestCommitment, standing for the request id) are HMAC-SHA256 keyed with it (docs/receipts.md); keep it to check them, or to let someone else check them */
            receiptSalt?: string;
            /** @description Variable pricing: the refund of the unused part of the payment */
            refund?: components["schemas"]["RefundResponse"];
            requestId: string;
            settlement: components["schemas"]["SettlementResponse"];
            /** @enum {string} */
            status: "pending" | "completed" | "failed" | "timeout" | "refunded";
            transactionId: string | null;
            usage?: components["schemas"]["UsageResponse"];
        };
        ExecutionTimelineResponse: {
            /** @description Oldest first */
            events: components["schemas"]["TimelineEventDto"][];
            /**
             * @description null for an execution in a chain asked for by its transaction id: a chain's request ids are read only by its read scope (GET /chains/{id})
             * @example req_2b8f0c6d9a
             */
            requestId: string | null;
            /** @description The execution's status */
            status: string;
            /** @example tx_8c1f0e2a7b */
            transactionId: string | null;
        };
        ExecutionsStats: {
            /** @description Failed or timed-out runs that reached the agent */
            failed: number;
            /** @description Of the successful executions, those paid by the agent's own wallet: counted here, but they move no reputation */
            selfPaid: number;
            /** @description Percentage, two decimals */
            successRate: number;
            /** @description Charged executions */
            successful: number;
            total: number;
        };
        FailedWebhookListResponse: {
            total: number;
            webhooks: components["schemas"]["FailedWebhookResponse"][];
        };
        FailedWebhookResponse: {
            /** Format: uuid */
            agentId: string;
            createdAt: string;
            /** @description When it was marked failed (its deliveries stopped) */
            disabledAt: string;
            events: ("execution.completed" | "execution.failed" | "dispute.filed" | "dispute.resolved" | "escrow.released" | "withdrawal.completed" | "withdrawal.failed" | "agent.health_changed")[];
            /** @description Its delivery attempts that failed (counted up to 1,000) */
            failedAttempts: number;
            /** @description Why it was marked failed */
            failureReason: string | null;
            /** @example wh_... */
            id: string;
            lastAttemptAt: string | null;
            /** @description The last failed attempt's error */
            lastError: string | null;
            /** @description The last failed attempt's HTTP status */
            lastResponseStatus: number | null;
            url: string;
        };
        FeedExecutionEvent: {
            /** Format: uuid */
            agentId: string;
            agentName: string;
            /**
             * @description USDC charged (platform fee + agent fee); null for a failed run, which is not charged
             * @example 0.011000
             */
            amount: string | null;
            /**
             * Format: date-time
             * @description When it ended
             */
            at: string;
            capabilityId: string;
            settlement: components["schemas"]["FeedSettlement"];
            /** @enum {string} */
            status: "completed" | "failed";
            /**
             * @description The transaction of a completed run (its page is /executions/{transactionId}); null for a failed run
             * @example tx_2b8f0c6d9a4e1f3a5b7c
             */
            transactionId: string | null;
        };
        FeedSettlement: {
            /** @example base-sepolia */
            network: string | null;
            /** @description settlement_pending, settled, settlement_failed, settlement_expired; null when not charged */
            status: string | null;
            /** @description The on-chain transaction that moved the payment */
            txHash: string | null;
        };
        FileDisputeDto: {
            /** @description Free text (links, excerpts); what the platform saw is attached without asking */
            evidence?: string;
            reason: string;
            /**
             * @description The charged transaction (tx_) being disputed
             * @example tx_3mZ0v1Xq9c2bWk4r
             */
            transactionId: string;
        };
        FileDisputeResponse: {
            createdAt: string;
            disputeId: string;
            /** @description HMAC-SHA256 key (64 hex) of the evidence hashes; given to the payer here and to the agent at GET /disputes/:id/evidence-key, to nobody else. Null for an unverified filing (see verified) */
            evidenceKey: string | null;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            reason: string;
            respondBy: string;
            /** @enum {string} */
            status: "pending";
            transactionId: string;
            /** @description Whether the filer proved it is the payer: false for a filing proved only by a payment header on a public chain (evm), which moves no reputation and is not resolved client_wins by the deadline until the payer's signature confirms it */
            verified: boolean;
        };
        HealthHourResponse: {
            /** @description Mean latency of the probes answered (ms) */
            avgLatencyMs: number | null;
            /**
             * Format: date-time
             * @description Start of the hour (UTC)
             */
            hour: string;
            /** @description Probes in the hour */
            probes: number;
            /** @description Probes the agent answered (up) */
            ups: number;
        };
        InvariantCheckResponse: {
            checkedAt: string;
            /**
             * @description The invariants violated
             * @example []
             */
            failed: string[];
            /** @description Whether every money invariant held (false: payouts are paused) */
            ok: boolean;
            violations: components["schemas"]["InvariantViolationsResponse"][];
        };
        InvariantHistoryEntryResponse: {
            checkedAt: string;
            /**
             * @description The invariants violated
             * @example []
             */
            failed: string[];
            /**
             * @description Increasing with each entry kept
             * @example 42
             */
            id: string;
            /** @description Whether every money invariant held (false: payouts are paused) */
            ok: boolean;
            violations: components["schemas"]["InvariantViolationsResponse"][];
        };
        InvariantHistoryResponse: {
            /** @description The last check (null: the worker has not checked yet) */
            current: components["schemas"]["InvariantCheckResponse"] | null;
            /** @description Newest first: a result is kept when it differs from the one before it (ok, or the invariants failed), and at least once an hour while it holds; kept 7 days */
            history: components["schemas"]["InvariantHistoryEntryResponse"][];
            /** @description Entries kept */
            total: number;
        };
        InvariantViolationsResponse: {
            /**
             * @description The invariant
             * @example I1
             */
            id: string;
            /** @description Its first violations (at most 5), as the check describes them */
            violations: string[];
        };
        LatencyPercentiles: {
            /** @description ms */
            p50: number;
            p95: number;
            p99: number;
        };
        LeaderboardEntryResponse: {
            /** Format: uuid */
            agentId: string;
            name: string;
            rank: number;
            score: number;
            /** @enum {string} */
            tier: "Excellent" | "Trusted" | "Standard" | "At Risk" | "Critical";
            totalExecutions: number;
        };
        LeaderboardResponse: {
            leaderboard: components["schemas"]["LeaderboardEntryResponse"][];
        };
        NoAttestation: {
            /** @example none */
            type: string;
        };
        PayerExecutionsResponse: {
            /** @description Newest first */
            executions: components["schemas"]["ExecutionListItemDto"][];
            /** @description The cursor of the next page; null on the last */
            next: string | null;
            wallet: string;
        };
        PaymentStatusItem: {
            /**
             * @description USDC, six decimals: the authorization value
             * @example 0.011000
             */
            amount: string;
            /** @description The token contract (lower case) */
            asset: string;
            /** @example 84532 */
            chainId: number;
            /** Format: date-time */
            createdAt: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            /** @example base-sepolia */
            network: string;
            /** @description The EIP-3009 authorization nonce */
            nonce: string;
            /** @description The payer (authorization.from, lower case) */
            payer: string;
            /** @enum {string} */
            purpose: "execution" | "registration";
            /** @description The execution it paid for (GET /api/v1/execute/{requestId}): only to its payer, proven (with payer, X-Client-Wallet and X-Client-Signature or the payer's console session); null for anyone else and for an execution in a chain */
            requestId: string | null;
            /**
             * Format: date-time
             * @description When settled (settled, refunded)
             */
            settledAt: string | null;
            /**
             * @description settled: the money moved and what it paid for is recorded. settlement_pending: the outcome is not known yet (sent and not confirmed, queued or running, or its charge not yet recorded); never answered with a 402. failed: the last settlement attempt moved nothing; it is retried. released: it moved nothing and the platform will not move it (expired unused, or kept by a failed run for its retry only). refunded: settled, then owed back whole (a dispute the client won, a registration that created no agent). A partial refund leaves it settled.
             * @enum {string}
             */
            status: "settled" | "settlement_pending" | "failed" | "released" | "refunded";
            /** @description The settlement transaction: once settled or refunded, and while pending once one was sent */
            txHash: string | null;
        };
        PaymentStatusResponse: {
            /** @description The payments the reference names, newest first, at most 20 (several payers may share a nonce or an identifier) */
            payments: components["schemas"]["PaymentStatusItem"][];
        };
        PendingItemResponse: {
            /** @description Milliseconds since it was created */
            ageMs: number;
            /**
             * @description USDC (null for a chain_tx: its payouts carry the amounts)
             * @example 2.500000
             */
            amount: string | null;
            createdAt: string;
            /** @description The last error recorded on it */
            error: string | null;
            /** @example wd_3mZ0v1Xq9c2bWk4r */
            id: string;
            /**
             * @description withdrawal (not sent: pending, processing), refund (due and not sent: pending, processing, failed; a held dust refund is not listed), settlement (a payment whose settlement is not final: settling, settlement_failed), chain_tx (a transaction the platform signed that the chain has not decided: signed)
             * @enum {string}
             */
            kind: "withdrawal" | "refund" | "settlement" | "chain_tx";
            status: string;
        };
        PendingListResponse: {
            /** @description Oldest first: at most `limit` of each kind */
            items: components["schemas"]["PendingItemResponse"][];
            /** @description How many of each kind asked are not final, listed or not */
            totals: components["schemas"]["PendingTotalsResponse"];
        };
        PendingTotalsResponse: {
            chain_tx?: number;
            refund?: number;
            settlement?: number;
            withdrawal?: number;
        };
        PerformanceStats: {
            /** @description ms, rounded */
            avgExecutionTime: number;
            /** @description ms, nearest rank over completed executions */
            p50ExecutionTime: number;
            p95ExecutionTime: number;
            p99ExecutionTime: number;
        };
        PlatformEvidenceResponse: {
            /** @description keyId and signature (t=<unix s>,ed25519=<base64 over "agora-attestation.v2.<t>.<transactionId>.<sha256 hex of the canonical JSON of facts>">), verifiable against GET /platform/keys; never valid as a call to an agent */
            attestation: {
                [key: string]: unknown;
            };
            /** @description What the platform saw: transactionId, capabilityId, status, inputHash and outputHash (HMAC-SHA256, under the evidence key only the parties get, of the SHA-256 hex of the canonical JSON), agentError, timings, cost, settlement {status, txHash, network, payer}, chainId. Never the request id (the payer's only: it reads the output) */
            facts: {
                [key: string]: unknown;
            };
        };
        PlatformKeyResponse: {
            /** @example Ed25519 */
            alg: string;
            /** @example agora-1 */
            kid: string;
            /** @description Raw 32-byte Ed25519 public key, base64 */
            publicKey: string;
        };
        PlatformKeysResponse: {
            keys: components["schemas"]["PlatformKeyResponse"][];
            /**
             * @description The format offers and receipts are signed in here (none: they are not signed)
             * @enum {string}
             */
            receiptFormat: "jws" | "eip712" | "none";
            /** @description Keys of the signed offers and receipts (x402 offer-receipt), the current one first */
            receiptKeys: components["schemas"]["ReceiptKeyResponse"][];
        };
        PlatformSeriesPointDto: {
            /**
             * Format: date-time
             * @description The bucket start (UTC)
             */
            at: string;
            /** @description Distinct paying wallets of the executions that ended in the bucket */
            buyers: number;
            /** @description Executions that ended in the bucket (completed, failed or timed out) */
            executions: number;
            /** @description Distinct agents of the executions that ended in the bucket */
            sellers: number;
            /** @description Of those, the completed ones */
            succeeded: number;
            /**
             * @description USDC charged in the bucket (platform fee + agent fee)
             * @example 0.110000
             */
            volume: string;
        };
        PlatformSeriesResponse: {
            /** @enum {string} */
            bucket: "hour" | "day";
            /**
             * Format: date-time
             * @description Every execution and charge before this time is counted (the worker rolls them up every few seconds); null before the first roll-up
             */
            completeTo: string | null;
            /**
             * Format: date-time
             * @description The first bucket
             */
            from: string;
            /** @description One per bucket, oldest first, zeros where nothing happened */
            points: components["schemas"]["PlatformSeriesPointDto"][];
            /**
             * Format: date-time
             * @description The end of the last bucket (excluded)
             */
            to: string;
        };
        PricingDto: {
            /**
             * @description Decimal string, at most 6 decimals
             * @example 0.010000
             */
            basePrice: string;
            /** @enum {string} */
            currency: "USDC" | "USDT" | "DAI";
            /**
             * @description Required for per-token, per-minute and dynamic pricing: the most one execution can cost
             * @example 0.500000
             */
            maxPrice?: string;
            /** @enum {string} */
            model: "per-request" | "per-token" | "per-minute" | "dynamic";
        };
        PricingResponse: {
            /** @example 0.010000 */
            basePrice: string;
            currency: string;
            /** @example 0.500000 */
            maxPrice?: string;
            model: string;
        };
        QueueStatsListResponse: {
            queues: components["schemas"]["QueueStatsResponse"][];
        };
        QueueStatsResponse: {
            active: number;
            /** @description Completed and still kept (an hour, at most 1,000) */
            completed: number;
            /** @description Scheduled for later (retries, due times) */
            delayed: number;
            /** @description Failed for good and kept (7 days) */
            failed: number;
            /** @enum {string} */
            name: "maintenance" | "money" | "executions" | "webhooks";
            /** @description Milliseconds the oldest waiting job has waited since it became due: enqueued, its delay over, or its last attempt (null: none waits) */
            oldestWaitingAgeMs: number | null;
            /** @description Waiting for a worker (prioritized ones included) */
            waiting: number;
        };
        ReceiptKeyJwk: {
            /** @example Ed25519 */
            crv: string;
            /** @example OKP */
            kty: string;
            /** @description The public key, base64url */
            x: string;
        };
        ReceiptKeyResponse: {
            /** @description The EIP-712 signer of the same key set (secp256k1), checksummed */
            address: string;
            /**
             * @description The JWS algorithm
             * @example EdDSA
             */
            alg: string;
            /** @description True for the key that signs now; the others signed earlier receipts and still verify */
            current: boolean;
            /** @description The JWS kid: a verification method of this deployment's did:web document */
            kid: string;
            publicKeyJwk: components["schemas"]["ReceiptKeyJwk"];
        };
        ReceiptVerdictKey: {
            address: string;
            /** @description False: a retired key, still published */
            current: boolean;
            kid: string;
        };
        RecommendResponse: {
            query: string;
            recommendations: components["schemas"]["RecommendationResponse"][];
        };
        RecommendationResponse: {
            agent: components["schemas"]["RecommendedAgentResponse"];
            /** @description IDs of the capabilities that match the query */
            matchedCapabilities: string[];
            relevance: number;
        };
        RecommendedAgentResponse: {
            capabilities: components["schemas"]["DiscoveredCapabilityResponse"][];
            /** Format: uuid */
            id: string;
            name: string;
        };
        RefundResponse: {
            amount: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            /** @example rfd_... */
            refundId: string;
            /**
             * @description held: below the dust floor, paid with the payer's next refund
             * @enum {string}
             */
            status: "held" | "pending" | "processing" | "completed" | "failed";
            txHash: string | null;
        };
        RegisterAgentDto: {
            capabilities: components["schemas"]["CapabilityDto"][];
            description?: string;
            endpoints: components["schemas"]["EndpointsDto"];
            metadata?: {
                [key: string]: unknown;
            };
            name: string;
            /** @example 0x209693Bc6afc0C5328bA36FaF03C514EF312287C */
            wallet: string;
        };
        RegistrationAcceptedResponse: {
            /**
             * Format: uuid
             * @description The agent's id if its creation was kept (GET /api/v1/agents/{agentId}; 404 if it was not). null when the fee's settlement itself was not known: no agent was created, and a fee that moved is refunded in full
             */
            agentId: string | null;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            /** @description The fee as this request knew it: settled with its hash, or settlement_pending (its hash once sent) */
            settlement: components["schemas"]["SettlementResponse"];
            /** @example pending */
            status: string;
            /**
             * @description Absolute URL of the fee's payment status (also in the Location header), by its settlement hash or, before one is known, by its authorization nonce and payer: settled once the agent exists; refunded in full (registration_unused) when no agent was created within REGISTRATION_BIND_GRACE_MS; released when the authorization expired unused; settlement_pending until then
             * @example https://agora.example.com/api/v1/payments/status/0x...
             */
            statusUrl: string;
        };
        ReputationBreakdownResponse: {
            disputesLost: number;
            disputesWon: number;
            failedExecutions: number;
            successfulExecutions: number;
        };
        ReputationEventResponse: {
            createdAt: string;
            /** @description The change applied (after the 0-100 clamp) */
            delta: number;
            /** @description What caused it: a transaction (tx_) or a dispute (dsp_); null for a failed run (its request id is its payer's) */
            refId: string | null;
            /** @description The score after this change */
            score: number;
            /**
             * @description execution.completed, execution.failed, dispute.filed, dispute.agent_wins, dispute.client_wins, dispute.split
             * @example execution.completed
             */
            type: string;
        };
        ReputationResponse: {
            /** Format: uuid */
            agentId: string;
            breakdown: components["schemas"]["ReputationBreakdownResponse"];
            /** @description Newest first (at most 20) */
            recentEvents: components["schemas"]["ReputationEventResponse"][];
            score: number;
            /** @enum {string} */
            status: "active" | "inactive" | "suspended";
            /** @enum {string} */
            tier: "Excellent" | "Trusted" | "Standard" | "At Risk" | "Critical";
        };
        ReputationStats: {
            /** @description Score now minus at the period start (all: minus 50, the score at registration) */
            change: number;
            current: number;
            /** @enum {string} */
            tier: "Excellent" | "Trusted" | "Standard" | "At Risk" | "Critical";
        };
        ResolveDisputeDto: {
            /** @description Refund now what the agent already withdrew of the earnings, paid by the platform and owed to it by the agent (default false: that part is the agent's debt to the payer, refunded as its later earnings repay it) */
            advance?: boolean;
            note?: string;
            /** @enum {string} */
            resolution: "agent_wins" | "client_wins" | "split";
        };
        RespondDisputeDto: {
            evidence?: string;
            response: string;
        };
        RespondDisputeResponse: {
            agentResponse: string;
            disputeId: string;
            respondedAt: string;
            /** @enum {string} */
            status: "responded";
        };
        SettlementResponse: {
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            /**
             * @description settlement_pending: the outcome is not known yet (never a 402: the output stays withheld until it settles; GET /api/v1/payments/status/{txHash} follows it); settlement_expired: the authorization passed its validBefore unused; nothing was charged and the output stays withheld
             * @enum {string|null}
             */
            status: "settlement_pending" | "settled" | "settlement_failed" | "settlement_expired" | null;
            /** @description The settlement transaction: once settled, and while pending once one was sent */
            txHash: string | null;
        };
        SignInDto: {
            /** @description An EIP-4361 message for this deployment: domain its host, URI its origin, version 1, the nonce of POST /console/nonce, Issued At, an Expiration Time at most an hour after it, and one resource naming the grant: agora:agent:<agentId> (signed by that agent’s wallet) or agora:wallet */
            message: string;
            /**
             * @description The message's address's personal_sign (EIP-191) signature
             * @example 0x…
             */
            signature: string;
        };
        SignInNonceResponse: {
            /**
             * @description The message's domain
             * @example agora.example.com
             */
            domain: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description Put it in the message; good for 10 minutes, once */
            nonce: string;
            /**
             * @description The message's URI
             * @example https://agora.example.com
             */
            uri: string;
        };
        SignedReceiptDto: {
            /** @description eip712 only: agora's signed delivery statement ({payload, signature}) */
            delivery?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            format: "jws" | "eip712";
            /** @description eip712 only: the signed payload */
            payload?: {
                [key: string]: unknown;
            };
            signature: string;
        };
        SignedReceiptResponse: {
            /** @description eip712 only: {payload, signature}, agora's receipt payload (the delivery: fees, hashes) signed by the same key under agora's own EIP-712 domain */
            delivery?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            format: "jws" | "eip712";
            /** @description eip712 only: the x402 offer-receipt extension's v1 receipt payload it signs (a JWS carries its own) */
            payload?: {
                [key: string]: unknown;
            };
            /** @description jws: the compact JWS (EdDSA; its kid resolves through /.well-known/did.json); eip712: the 65-byte signature (0x hex) */
            signature: string;
        };
        StatsResponse: {
            activeAgents: number;
            avgTransactionSize: string;
            totalAgents: number;
            totalTransactions: number;
            totalVolume: string;
        };
        SuspendAgentDto: {
            reason?: string;
        };
        SuspendedAgentListResponse: {
            agents: components["schemas"]["SuspendedAgentResponse"][];
            total: number;
        };
        SuspendedAgentResponse: {
            /** Format: uuid */
            id: string;
            name: string;
            reputationScore: number;
            /** @description When it was suspended (null: suspended before the platform recorded the time) */
            suspendedAt: string | null;
            /**
             * @description admin (POST /admin/agents/:id/suspend: no withdrawals either), or reputation (its score reached 0)
             * @enum {string|null}
             */
            suspendedBy: "admin" | "reputation" | null;
            /** @description The reason given, if any */
            suspendedReason: string | null;
            /** @description Its last change of any kind */
            updatedAt: string;
            /** @description The agent's wallet */
            wallet: string;
        };
        TestClockAdvanceResponse: {
            done: components["schemas"]["TestClockDoneResponse"];
            /** @description Always false: the test clock exists only in local settlement */
            livemode: boolean;
            seconds: number;
            shifted: components["schemas"]["TestClockShiftedResponse"];
        };
        TestClockDoneResponse: {
            /** @description Pending disputes past their response window, resolved for the client */
            disputesResolved: number;
            escrowReleased: number;
            refundsProcessed: number;
            withdrawalsProcessed: number;
        };
        TestClockShiftedResponse: {
            /** @description Pending disputes whose response deadline moved */
            disputes: number;
            /** @description Held escrows whose release time moved */
            escrowHolds: number;
            /** @description Refunds whose retry or claim time moved */
            refunds: number;
            /** @description Charges whose completion moved (their dispute filing window and the withdrawal reserve) */
            transactions: number;
            /** @description Pending and processing withdrawals whose retry or claim time moved */
            withdrawals: number;
        };
        TimelineEventDto: {
            /**
             * @description USDC: paid, held, released or refunded
             * @example 0.011000
             */
            amount?: string;
            /** Format: date-time */
            at: string;
            /** @description refund_issued: its reason; dispute_resolved: the outcome; disputed: the dispute's status; escrow_held: until when */
            detail?: string;
            /** @description ms since the execution was received */
            offsetMs: number;
            /** @description The on-chain transaction (settled, refund_sent) */
            txHash?: string;
            /** @enum {string} */
            type: "received" | "running" | "completed" | "failed" | "timeout" | "charged" | "settled" | "settlement_failed" | "settlement_expired" | "escrow_held" | "escrow_released" | "disputed" | "dispute_resolved" | "refund_issued" | "refund_sent";
        };
        TransactionListItemResponse: {
            agent_earnings: string;
            /** @description Agent fee */
            amount: string;
            capability_id: string;
            created_at: string;
            /** @description ms */
            execution_time: number;
            id: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            platformCut: string;
            providing_agent: string;
            /** @description The client: payer wallet, or the calling agent in a chain */
            requesting_agent: string;
            /** @enum {string} */
            status: "completed" | "disputed" | "refunded";
        };
        TransactionResponse: {
            agent_earnings: string;
            /** @description Agent fee */
            amount: string;
            capability_id: string;
            completed_at: string | null;
            created_at: string;
            dispute_id?: string | null;
            escrow_id: string | null;
            /** @description ms */
            execution_time: number;
            /** @description What the client paid: platform fee + agent fee */
            gross_amount: string;
            id: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            platformCut: string;
            /** @description Platform fee + platform cut */
            platform_revenue: string;
            providing_agent: string;
            /** @description The client: payer wallet, or the calling agent in a chain */
            requesting_agent: string;
            /** @enum {string} */
            status: "completed" | "disputed" | "refunded";
        };
        UpdateAgentDto: {
            /** @description Replaces the whole list */
            capabilities?: components["schemas"]["CapabilityDto"][];
            /** @description Merged into the current settings */
            chainSettings?: components["schemas"]["ChainSettingsDto"];
            /** @description null clears it */
            description?: Record<string, never> | null;
            endpoints?: components["schemas"]["EndpointsDto"];
            /** @description Replaces the metadata object */
            metadata?: {
                [key: string]: unknown;
            };
            name?: string;
            /** @enum {string} */
            status?: "active" | "inactive";
        };
        UsageResponse: {
            /** @description Tokens the agent reported */
            tokens: number | null;
        };
        VerifyReceiptDto: {
            /** @description The input sent: checked against the receipt's inputHash (version 3: with `salt`) */
            input?: {
                [key: string]: unknown;
            };
            /** @description The output received: checked against the receipt's contentHash (version 3: with `salt`) */
            output?: {
                [key: string]: unknown;
            };
            /** @description The receipt as received (`extensions["offer-receipt"].info.receipt` of PAYMENT-RESPONSE) */
            receipt: components["schemas"]["SignedReceiptDto"];
            /** @description The request id the payer holds: checked against the receipt's (version 4 states only its commitment, `requestCommitment`, HMAC-SHA256 keyed with `salt` of its JSON string: checking it needs `salt`, 400 without) */
            requestId?: string;
            /** @description The receipt's salt (`receiptSalt` of the paid answer, given to the payer only): a version 3 or 4 receipt's hashes (and version 4's request commitment) are HMAC-SHA256 keyed with it, so checking an output, input or request id against one needs it (400 without) */
            salt?: string;
        };
        VerifyReceiptResponse: {
            /** @enum {string|null} */
            format: "jws" | "eip712" | null;
            key: components["schemas"]["ReceiptVerdictKey"] | null;
            /** @description The signed payload (version 4: the request id only as `requestCommitment`, never in plain) */
            payload: {
                [key: string]: unknown;
            } | null;
            /** @enum {string|null} */
            reason: "malformed" | "not_a_receipt" | "unknown_key" | "bad_signature" | "content_mismatch" | "input_mismatch" | "request_mismatch" | null;
            valid: boolean;
        };
        WebhookDeletedResponse: {
            id: string;
            message: string;
        };
        WebhookListResponse: {
            total: number;
            webhooks: components["schemas"]["WebhookResponse"][];
        };
        WebhookResponse: {
            /** Format: uuid */
            agentId: string;
            createdAt: string;
            events: ("execution.completed" | "execution.failed" | "dispute.filed" | "dispute.resolved" | "escrow.released" | "withdrawal.completed" | "withdrawal.failed" | "agent.health_changed")[];
            /** @example wh_... */
            id: string;
            /** @enum {string} */
            status: "active" | "failed";
            /** @description The subscribed URL. In a list read without the agent's signature or session: its origin only, `https://host[:port]/` */
            url: string;
            /** @example wh_... */
            webhookId: string;
        };
        WithdrawDto: {
            /** Format: uuid */
            agentId: string;
            /**
             * @description Decimal string, at least 1.00; the 0.10 fee is taken from it
             * @example 5.00
             */
            amount: string;
            /** @example 0x209693Bc6afc0C5328bA36FaF03C514EF312287C */
            destinationWallet: string;
        };
        WithdrawResponse: {
            agentId: string;
            amount: string;
            destinationWallet: string;
            fee: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            message: string;
            netAmount: string;
            /** @example pending */
            status: string;
            withdrawalId: string;
        };
        WithdrawalListResponse: {
            summary: components["schemas"]["WithdrawalSummaryResponse"];
            withdrawals: components["schemas"]["WithdrawalResponse"][];
        };
        WithdrawalResponse: {
            agent_id: string;
            amount: string;
            completed_at: string | null;
            created_at: string;
            destination_wallet: string;
            fee: string;
            id: string;
            /** @description False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet. */
            livemode: boolean;
            net_amount: string;
            /** @enum {string} */
            status: "pending" | "processing" | "completed" | "failed";
            tx_hash: string | null;
        };
        WithdrawalSummaryResponse: {
            pendingAmount: string;
            totalCount: number;
            totalWithdrawn: string;
        };
        X402CursorPagination: {
            /** @description The next page (null: none) */
            cursor: string | null;
            /** @description Resources in this page */
            limit: number;
        };
        X402DiscoveryManifestResponse: {
            discovery: components["schemas"]["DiscoveryManifestLinks"];
            items: components["schemas"]["DiscoveryManifestItem"][];
            /** @description Unix seconds: when this page was built */
            lastUpdated: number;
            /** @description The next page (null: none) */
            next: string | null;
            pagination: components["schemas"]["X402OffsetPagination"];
            /** @example 2 */
            x402Version: number;
        };
        X402DiscoveryResource: {
            /** @description What the resource accepts: the v2 PaymentRequirements of its 402 */
            accepts: {
                [key: string]: unknown;
            }[];
            description?: string;
            /** @description Discovery extensions: `bazaar` (input example and schema, output, route template) */
            extensions?: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the agent's listing last changed
             */
            lastUpdated: string;
            /** @example application/json */
            mimeType?: string;
            /** @example https://agora.example/api/v1/agents/{agentId}/capabilities/translate/execute */
            resource: string;
            /** @description The agent's name (1-32 printable characters) */
            serviceName?: string;
            /** @description The capability id, then the agent tags (at most 5) */
            tags?: string[];
            /** @example http */
            type: string;
            /** @example 2 */
            x402Version: number;
        };
        X402ManifestLinks: {
            /** @description `/.well-known/x402.json`: the payment terms, input and output of each */
            manifest: string;
            /** @description The discovery API list (every capability, offset paging) */
            resources: string;
            /** @description The discovery API search */
            search: string;
        };
        X402ManifestResourceDto: {
            /**
             * @description The description of the resource's 402
             * @example Polyglot: Translate text
             */
            description: string;
            /** @example POST */
            method: string;
            /** @example https://agora.example/api/v1/agents/{agentId}/capabilities/translate/execute */
            url: string;
        };
        X402ManifestResponse: {
            attestation: components["schemas"]["NoAttestation"];
            description: string;
            discovery: components["schemas"]["X402ManifestLinks"];
            /** @description The API reference */
            docs: string;
            /** @example resource-server */
            kind: string;
            /** @example agora */
            name: string;
            /** @description Bare pointers, best-ranked first (at most 100) */
            resources: components["schemas"]["X402ManifestResourceDto"][];
            /** @description Capabilities listed in all */
            total: number;
            /** @description `resources` holds only the first of them (the rest: `discovery`) */
            truncated: boolean;
            /**
             * Format: date-time
             * @description The latest change of a listed agent
             */
            updated: string;
            /**
             * @description An integer
             * @example 2
             */
            x402Version: number;
        };
        X402OffsetPagination: {
            limit: number;
            offset: number;
            /** @description Every listed resource that passes the filters */
            total: number;
        };
        X402ResourcesResponse: {
            items: components["schemas"]["X402DiscoveryResource"][];
            pagination: components["schemas"]["X402OffsetPagination"];
            /** @example 2 */
            x402Version: number;
        };
        X402SearchResponse: {
            pagination: components["schemas"]["X402CursorPagination"];
            /** @description true when more agents may match than the 50 ranked */
            partialResults: boolean;
            resources: components["schemas"]["X402DiscoveryResource"][];
            /** @example 2 */
            x402Version: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    ManifestsController_card: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentCardResponse"];
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ReceiptsController_did: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A DID document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ManifestsController_x402: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["X402ManifestResponse"];
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ManifestsController_x402Json: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["X402DiscoveryManifestResponse"];
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminAgentsController_suspended: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SuspendedAgentListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminAgentsController_reinstate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminAgentsController_suspend: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SuspendAgentDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminDisputesController_list: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminDisputeListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminDisputesController_resolve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResolveDisputeDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DisputeResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminInvariantsController_get: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["InvariantHistoryResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminPendingController_list: {
        parameters: {
            query?: {
                /** @description One kind only (default: every kind) */
                kind?: "withdrawal" | "refund" | "settlement" | "chain_tx";
                /** @description Per kind */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PendingListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminQueuesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["QueueStatsListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminRefundsController_retry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RefundResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminTestClockController_advance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdvanceTestClockDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TestClockAdvanceResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AdminWebhooksController_failed: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FailedWebhookListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AgentsController_register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterAgentDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RegistrationAcceptedResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    CapabilityExecuteController_execute: {
        parameters: {
            query?: {
                /** @description Run in the background: 202 with a status URL */
                async?: "true" | "false";
                /** @description Where the result is posted when complete (HTTPS); or the X-Callback-Url header */
                callbackUrl?: string;
                /** @description Scoped to the payer wallet; bound to agent, capability and input; kept 24 h; or the Idempotency-Key header */
                idempotencyKey?: string;
            };
            header?: {
                /** @description A chain token: a call inside an execution chain, paid from its budget (no payment), as on POST /execute */
                "X-Chain-Token"?: string;
                /** @description Same as the callbackUrl query parameter */
                "X-Callback-Url"?: string;
                /** @description Same as the idempotencyKey query parameter */
                "Idempotency-Key"?: string;
            };
            path: {
                agentId: string;
                capabilityId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExecutionResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AsyncAcceptedResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AgentsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AgentsController_deactivate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DeleteAgentResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AgentsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ExecutionListsController_agent: {
        parameters: {
            query?: {
                limit?: unknown;
                /** @description The `next` of the page before */
                cursor?: string;
                status?: "pending" | "completed" | "failed" | "timeout" | "refunded";
                /** @description Only this capability */
                capabilityId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentExecutionsResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AgentsController_health: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentHealthHistoryResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AnalyticsController_agent: {
        parameters: {
            query?: {
                /** @description Rolling: day = the last 24 h, week = 7 days, month = 30 days, all */
                period?: "day" | "week" | "month" | "all";
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentAnalyticsResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AnalyticsController_agentSeriesOf: {
        parameters: {
            query?: {
                /** @description UTC hours or UTC days */
                bucket?: "hour" | "day";
                /** @description Rounded down to its bucket. Default: 24 hours (hour) or 30 days (day) before `to` */
                from?: string;
                /** @description Rounded up to its bucket, excluded. Default: now (the current bucket included). At most 744 hours, or 366 days (an agent: 93 days), after `from` */
                to?: string;
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentSeriesResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    AnalyticsController_platform: {
        parameters: {
            query?: {
                /** @description UTC hours or UTC days */
                bucket?: "hour" | "day";
                /** @description Rounded down to its bucket. Default: 24 hours (hour) or 30 days (day) before `to` */
                from?: string;
                /** @description Rounded up to its bucket, excluded. Default: now (the current bucket included). At most 744 hours, or 366 days (an agent: 93 days), after `from` */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PlatformSeriesResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ChainsController_budget: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BudgetCheckDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BudgetCheckResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ChainsController_keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ChainKeysResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ChainsController_status: {
        parameters: {
            query?: never;
            header?: {
                /** @description A token of this chain: shows the request ids of its holder's subtree (403 once its execution has ended) */
                "X-Chain-Token"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ChainStatusResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ChainsController_close: {
        parameters: {
            query?: never;
            header: {
                /** @description A token of this chain handed to the root's caller */
                "X-Chain-Token": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ChainStatusResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ChainsController_cost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ChainCostResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ConsoleAuthController_nonce: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SignInNonceResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ConsoleAuthController_current: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConsoleSessionResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ConsoleAuthController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConsoleSessionListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ConsoleAuthController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignInDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConsoleSessionResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ConsoleAuthController_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    DiscoveryController_discover: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Case-insensitive substring of a capability name */
                capability?: string;
                /** @description Maximum base price per request */
                maxPrice?: string;
                minReputation?: number;
                /** @description Minimum share of health probes answered over 24 h */
                minUptime?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DiscoverResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    DiscoveryController_recommend: {
        parameters: {
            query: {
                query: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RecommendResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    DisputesController_file: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FileDisputeDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FileDisputeResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    DisputesController_list: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                status?: "pending" | "responded" | "resolved";
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DisputeListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    DisputesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DisputeResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    DisputesController_evidenceKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DisputeEvidenceKeyResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    DisputesController_respond: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RespondDisputeDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RespondDisputeResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    EventsController_list: {
        parameters: {
            query?: {
                /** @description The cursor of the last event seen (an event or nextCursor): the page starts after it */
                after?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentEventsResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ExecutionController_execute: {
        parameters: {
            query?: {
                async?: boolean;
            };
            header?: {
                /** @description Same as the body idempotencyKey (1-255 characters); both and different: 400 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExecuteDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExecutionResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AsyncAcceptedResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    TimelineController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExecutionTimelineResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ExecutionController_status: {
        parameters: {
            query?: never;
            header?: {
                /** @description A chain token: reads the executions below its holder while the holder runs */
                "X-Chain-Token"?: string;
            };
            path: {
                requestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExecutionResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ExecutionController_retry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                requestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExecutionResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    FeedController_executions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The data of each `execution` event (JSON) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["FeedExecutionEvent"];
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    HealthController_check: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Health Check is successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        /** @example {} */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /** @example ok */
                        status?: string;
                    };
                };
            };
            /** @description The Health Check is not successful */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       },
                         *       "redis": {
                         *         "message": "Could not connect",
                         *         "status": "down"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        /**
                         * @example {
                         *       "redis": {
                         *         "message": "Could not connect",
                         *         "status": "down"
                         *       }
                         *     }
                         */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /** @example error */
                        status?: string;
                    };
                };
            };
        };
    };
    HealthController_live: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    HealthController_ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Health Check is successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        /** @example {} */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /** @example ok */
                        status?: string;
                    };
                };
            };
            /** @description The Health Check is not successful */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       },
                         *       "redis": {
                         *         "message": "Could not connect",
                         *         "status": "down"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        /**
                         * @example {
                         *       "redis": {
                         *         "message": "Could not connect",
                         *         "status": "down"
                         *       }
                         *     }
                         */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /** @example error */
                        status?: string;
                    };
                };
            };
        };
    };
    HealthController_worker: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Health Check is successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        /** @example {} */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /** @example ok */
                        status?: string;
                    };
                };
            };
            /** @description The Health Check is not successful */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       },
                         *       "redis": {
                         *         "message": "Could not connect",
                         *         "status": "down"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        /**
                         * @example {
                         *       "redis": {
                         *         "message": "Could not connect",
                         *         "status": "down"
                         *       }
                         *     }
                         */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /** @example error */
                        status?: string;
                    };
                };
            };
        };
    };
    PayerDisputesController_disputes: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                status?: "pending" | "responded" | "resolved";
            };
            header?: {
                "X-Client-Signature"?: string;
                "X-Client-Wallet"?: string;
            };
            path: {
                wallet: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DisputeListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ExecutionListsController_payer: {
        parameters: {
            query?: {
                limit?: unknown;
                /** @description The `next` of the page before */
                cursor?: string;
                status?: "pending" | "completed" | "failed" | "timeout" | "refunded";
                /** @description Only this capability */
                capabilityId?: string;
            };
            header?: {
                "X-Client-Signature"?: string;
                "X-Client-Wallet"?: string;
            };
            path: {
                wallet: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PayerExecutionsResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    PaymentsController_balance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BalanceResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    PaymentsController_history: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                status?: "completed" | "disputed" | "refunded";
                /** @description Only this capability */
                capabilityId?: string;
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TransactionListItemResponse"][];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    PaymentsController_stats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StatsResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    PaymentsController_status: {
        parameters: {
            query?: {
                /** @description The paying wallet: required with a payment identifier; with it a nonce is looked up too, and only its payments are answered. A payment identifier is looked up, and request ids answered, only with this wallet's proof (X-Client-Wallet and X-Client-Signature over the wallet, or its console session) */
                payer?: string;
            };
            header?: never;
            path: {
                /** @description A settlement transaction hash or an EIP-3009 authorization nonce (0x and 64 hex digits), or an x402 payment identifier (16-128 of A-Z, a-z, 0-9, "_" and "-") */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentStatusResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    PaymentsController_transaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                txId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TransactionResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    PaymentsController_withdraw: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WithdrawDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WithdrawResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    PaymentsController_withdrawal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WithdrawalResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    PaymentsController_list: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WithdrawalListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ExecutionController_keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PlatformKeysResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ReceiptsController_verify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyReceiptDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["VerifyReceiptResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ReputationController_top: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LeaderboardResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ReputationController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ReputationResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    WebhooksController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    WebhooksController_list: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    WebhooksController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDeletedResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    WebhooksController_deliveryLog: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DeliveryListResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    WebhooksController_redeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DeliveryResponse"];
                        /** @example true */
                        success: boolean;
                    };
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN) */
            429: {
                headers: {
                    /** @description Seconds until the window ends */
                    "Retry-After"?: number;
                    /** @description The window's limit a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description What is left of it (0) */
                    "X-RateLimit-Remaining"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    ManifestsController_llms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description llmstxt.org Markdown */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    X402DiscoveryController_resources: {
        parameters: {
            query?: {
                /** @description Protocol type: every agora resource is `http` */
                type?: string;
                /** @description Payment recipient (the platform wallet) */
                payTo?: string;
                scheme?: string;
                /** @description CAIP-2 network (or its x402 v1 name) */
                network?: string;
                /** @description Extension keys (comma-separated) a resource must carry */
                extensions?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["X402ResourcesResponse"];
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
    X402DiscoveryController_search: {
        parameters: {
            query: {
                /** @description Protocol type: every agora resource is `http` */
                type?: string;
                /** @description Payment recipient (the platform wallet) */
                payTo?: string;
                scheme?: string;
                /** @description CAIP-2 network (or its x402 v1 name) */
                network?: string;
                /** @description Extension keys (comma-separated) a resource must carry */
                extensions?: string;
                /** @description Natural-language query */
                query: string;
                limit?: number;
                /** @description The `pagination.cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["X402SearchResponse"];
                };
            };
            /** @description Error envelope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
            /** @description Error envelope */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            code?: string;
                            details?: Record<string, never>;
                            message?: string;
                        };
                        /** @example false */
                        success?: boolean;
                    };
                };
            };
        };
    };
}
