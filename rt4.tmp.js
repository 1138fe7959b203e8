const { Client } = require('pg');
const { randomUUID } = require('crypto');
(async () => {
  const c = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/agora_bench' });
  await c.connect();
  const time = async (label, fn, n = 400) => { for (let i=0;i<40;i++) await fn(); const t = process.hrtime.bigint(); for (let i=0;i<n;i++) await fn(); console.log(label, (Number(process.hrtime.bigint()-t)/1e6/n).toFixed(3), 'ms'); };
  const args = () => [randomUUID(), 'rt.test', randomUUID(), {}, ['world:chain','platform:revenue','agent:x:escrow'], ['world','revenue','escrow'], [null,null,'x'], [null,'0','0'], [null,null,null], ['-11000','10500','500']];
  const post = () => c.query({ name: 'lp', text: 'SELECT '+(process.env.FN||'ledger_post')+'($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)', values: args() });
  await time('ledger_post in tx', async () => { await c.query('BEGIN'); await post(); await c.query('COMMIT'); });
  await time('select 1 in tx', async () => { await c.query('BEGIN'); await c.query('SELECT 1'); await c.query('COMMIT'); });
  await time('insert tx row in tx', async () => { await c.query('BEGIN'); await c.query({name:'it', text:`INSERT INTO ledger_transactions (id, code, ref_id, metadata) VALUES ($1,'x',$2,'{}')`, values:[randomUUID(), randomUUID()]}); await c.query('ROLLBACK'); });
  await c.end();
})();
