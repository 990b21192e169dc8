import { BlockedTargetError, resolveDeliveryTarget } from '../../core/outbound-http';
import { classifyAddress } from '../../domain/ssrf';

/** The delivery-time check with the system resolver (localhost from /etc/hosts). */
describe('delivery-time check (resolves the host, pins the address)', () => {
  it('refuses a loopback host when only private ranges are allowed; resolves and pins it when loopback is allowed', async () => {
    await expect(resolveDeliveryTarget('https://localhost/h', { loopback: false, private: true })).rejects.toBeInstanceOf(
      BlockedTargetError,
    );
    const ok = await resolveDeliveryTarget('http://localhost:9/h', { loopback: true, private: false });
    expect(classifyAddress(ok.address)).toBe('loopback');
  });

  it('never delivers to a metadata address, whatever the policy', async () => {
    await expect(resolveDeliveryTarget('https://169.254.169.254/latest/meta-data', { loopback: true, private: true })).rejects.toThrow(
      /metadata/,
    );
    await expect(resolveDeliveryTarget('https://[fd00:ec2::254]/latest', { loopback: true, private: true })).rejects.toThrow(/metadata/);
  });
});
