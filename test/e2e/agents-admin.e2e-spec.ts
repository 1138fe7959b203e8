import { Wallet } from 'ethers';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';
const ADMIN = { 'X-Admin-Key': 'test-admin-key-0123456789' };

describe('Agents API (e2e)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  async function register(wallet: Wallet, overrides: Record<string, unknown> = {}) {
    const res = await registerAgent(api, wallet, overrides);
    expect(res.status).toBe(201);
    return res.body.data as { id: string; [k: string]: any };
  }

  describe('DELETE /api/v1/agents/:id', () => {
    it('deactivates (keeps the agent, status inactive) for the owner only, once per signature', async () => {
      const owner = newWallet();
      const { id } = await register(owner);
      const stranger = newWallet();
      expect((await api.request('DELETE', `/api/v1/agents/${id}`)).status).toBe(401);
      expect(
        (
          await api.request('DELETE', `/api/v1/agents/${id}`, {
            headers: await walletHeaders(stranger, id, `DELETE /api/v1/agents/${id}`),
          })
        ).status,
      ).toBe(403);
      const headers = await walletHeaders(owner, id, `DELETE /api/v1/agents/${id}`);
      const res = await api.request('DELETE', `/api/v1/agents/${id}`, { headers });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { message: 'Agent deactivated', id } });
      expect((await api.request('GET', `/api/v1/agents/${id}`)).body.data.status).toBe('inactive');
      expect((await api.request('DELETE', `/api/v1/agents/${id}`, { headers })).status).toBe(401);
    });
  });

  describe('admin suspend / reinstate', () => {
    it('requires the admin key, suspends, blocks owner status changes, and reinstates', async () => {
      const owner = newWallet();
      const { id } = await register(owner);
      expect((await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, { body: {} })).status).toBe(401);
      const wrong = await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, {
        body: {},
        headers: { 'X-Admin-Key': 'wrong-key-wrong-key' },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('FORBIDDEN');

      const suspended = await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, {
        body: { reason: 'terms violation' },
        headers: ADMIN,
      });
      expect(suspended.status).toBe(200);
      expect(suspended.body.data.status).toBe('suspended');
      expect(
        (await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, { body: {}, headers: ADMIN })).body.error.code,
      ).toBe('INVALID_STATE');

      const selfReactivate = await api.request('PATCH', `/api/v1/agents/${id}`, {
        body: { status: 'active' },
        headers: await walletHeaders(owner, id, `PATCH /api/v1/agents/${id}`),
      });
      expect(selfReactivate.status).toBe(409);
      expect(selfReactivate.body.error.code).toBe('INVALID_STATE');
      const selfDelete = await api.request('DELETE', `/api/v1/agents/${id}`, {
        headers: await walletHeaders(owner, id, `DELETE /api/v1/agents/${id}`, Date.now() + 1),
      });
      expect(selfDelete.status).toBe(409);
      const rename = await api.request('PATCH', `/api/v1/agents/${id}`, {
        body: { name: 'Still Editable' },
        headers: await walletHeaders(owner, id, `PATCH /api/v1/agents/${id}`, Date.now() + 2),
      });
      expect(rename.status).toBe(200);
      expect(rename.body.data.status).toBe('suspended');

      const reinstated = await api.request('POST', `/api/v1/admin/agents/${id}/reinstate`, { headers: ADMIN });
      expect(reinstated.status).toBe(200);
      expect(reinstated.body.data.status).toBe('active');
      expect(
        (await api.request('POST', `/api/v1/admin/agents/${id}/reinstate`, { headers: ADMIN })).body.error.code,
      ).toBe('INVALID_STATE');
      expect(
        (
          await api.request('POST', '/api/v1/admin/agents/0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b/reinstate', {
            headers: ADMIN,
          })
        ).status,
      ).toBe(404);
    });

    it('does not exist when no ADMIN_API_KEY is configured', async () => {
      const noAdmin = await startApi({ ADMIN_API_KEY: '' });
      try {
        const res = await noAdmin.request('POST', '/api/v1/admin/agents/0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b/suspend', {
          body: {},
          headers: ADMIN,
        });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      } finally {
        await noAdmin.close();
      }
    });
  });
});
