/**
 * docs/deployment.md: everything a deployment holds lives in its database, the documents merchants
 * upload (B35) too. One uploaded through a follower (forwarded to the leader, which stores it
 * before it journals the command) is served by O32 and O33 on every node, and still after the
 * leader is killed: the new leader and the other follower answer the same bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../support/clients.js';
import { Cluster, type ClusterNode } from '../../support/cluster.js';
import { Operator } from '../../support/fixtures.js';
import { MerchantClient, merchantUser, onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { postgresDatabases } from '../../support/postgres.js';

const BOUNDARY = '----bourse-cluster-documents';
/** A "JPEG": the signature B35 checks, then bytes of every value (nothing survives as text by chance). */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200 * 1024)]);
const JPEG_SHA256 = createHash('sha256').update(JPEG).digest('hex');

interface DeskDocument {
  documentId: string;
  name: string;
  contentType: string;
  size: number;
  url: string;
}

describe('an uploaded document on a three-node deployment', () => {
  const databases = postgresDatabases();
  let cluster: Cluster;
  let leader: ClusterNode;
  let uploadFollower: ClusterNode;
  let otherFollower: ClusterNode;
  let client: MerchantClient;
  let orderId: number;

  beforeAll(async () => {
    cluster = await Cluster.start({ databaseUrl: await databases.url(), size: 3 });
    leader = await cluster.leader();
    [uploadFollower, otherFollower] = cluster.followersOf(leader);
    // Everything through the follower: its writes are forwarded to the leader. Operator reads only the URL and the token.
    const op = new Operator({ url: uploadFollower.url, adminToken: cluster.adminToken });
    await exampleBooks(op);
    // B0 is a GET that journals the token: the follower forwards it to the leader as a write.
    ({ client } = await merchantUser(op, uploadFollower.url));
    await client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'documents' });
    await onboardedMerchant(client, 'Cluster MX');
    ({ orderId } = await client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId: 'cluster-docs-1' }));
    expect((await client.ok<{ orderStatus: number }>('GET', '/v2/order/detail', { orderId })).orderStatus).toBe(31);
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  /** O32's documents of the order, then O33's answer for the first, through `node`. */
  const readBack = async (node: ClusterNode): Promise<{ documents: DeskDocument[]; contentType: string | null; bytes: Buffer }> => {
    const order = await new AdminClient(node.url, cluster.adminToken).send('GET', `/payments/orders/${orderId}`);
    expect(order.status, `${node.name}: ${order.text}`).toBe(200);
    const { documents } = order.body as { documents: DeskDocument[] };
    const file = await fetch(`${node.url}${documents[0]?.url ?? `/admin/v1/payments/orders/${orderId}/documents/${JPEG_SHA256}`}`, { headers: { Authorization: `Bearer ${cluster.adminToken}` } });
    expect(file.status, node.name).toBe(200);
    return { documents, contentType: file.headers.get('content-type'), bytes: Buffer.from(await file.arrayBuffer()) };
  };

  it('when a merchant uploads through a follower and the leader is then killed -9, then the new leader and the other follower serve the same bytes', async () => {
    const form = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${orderId}\r\n`, 'utf8'),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="scan.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`, 'utf8'),
      JPEG,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`, 'latin1'),
    ]);
    const upload = await fetch(`${uploadFollower.url}/v2/order/invoice`, { method: 'POST', headers: { 'X-BH-TOKEN': client.token, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` }, body: new Uint8Array(form) });
    expect(await upload.json()).toEqual({ code: 200, msg: 'SUCCESS', data: true });
    expect((await client.ok<{ orderStatus: number }>('GET', '/v2/order/detail', { orderId })).orderStatus).toBe(40);
    // The leader stored it in the database, not on its own disk.
    for (const node of cluster.nodes) expect(existsSync(path.join(node.dataDir, 'uploads')), node.name).toBe(false);

    await leader.kill9();
    const newLeader = await cluster.leader({ among: [uploadFollower, otherFollower] });
    const stillFollowing = newLeader === uploadFollower ? otherFollower : uploadFollower;

    for (const node of [newLeader, stillFollowing]) {
      const { documents, contentType, bytes } = await readBack(node);
      expect(documents, node.name).toEqual([{ documentId: JPEG_SHA256, name: `${JPEG_SHA256}.jpg`, contentType: 'image/jpeg', size: JPEG.length, uploadTime: expect.any(Number), url: `/admin/v1/payments/orders/${orderId}/documents/${JPEG_SHA256}` }]);
      expect(contentType, node.name).toBe('image/jpeg');
      expect(bytes.equals(JPEG), node.name).toBe(true);
    }
  });
});
