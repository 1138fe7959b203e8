import { randomBytes } from 'node:crypto';
import { Wallet, verifyMessage, verifyTypedData } from 'ethers';
import { recoverMessageSigner, recoverTypedDataSigner } from './signatures';

const TYPES = {
  Mail: [
    { name: 'to', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};
const DOMAIN = {
  name: 'USDC',
  version: '2',
  chainId: 84532,
  verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
};

describe('native signature recovery', () => {
  it('agrees with ethers on 50 random EIP-712 and EIP-191 signatures', async () => {
    for (let i = 0; i < 50; i++) {
      const w = Wallet.createRandom();
      const value = {
        to: Wallet.createRandom().address,
        amount: String(BigInt(`0x${randomBytes(6).toString('hex')}`)),
        nonce: `0x${randomBytes(32).toString('hex')}`,
      };
      const typed = await w.signTypedData(DOMAIN, TYPES, value);
      expect(recoverTypedDataSigner(DOMAIN, TYPES, value, typed)).toBe(verifyTypedData(DOMAIN, TYPES, value, typed));
      expect(recoverTypedDataSigner(DOMAIN, TYPES, value, typed)).toBe(w.address);
      const message = `agora-auth:${randomBytes(8).toString('hex')}:${Date.now()}`;
      const personal = await w.signMessage(message);
      expect(recoverMessageSigner(message, personal)).toBe(verifyMessage(message, personal));
    }
  });

  it('recovers someone else for a tampered message', async () => {
    const w = Wallet.createRandom();
    const sig = await w.signMessage('hello');
    expect(recoverMessageSigner('hellO', sig)).not.toBe(w.address);
  });
});
