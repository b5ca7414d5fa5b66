// The worker the workerd test bundles: it imports lakelet's public entry (so the bundle proves nothing in it
// reaches a Node built-in), opens the table at `?url=` with httpStorage and answers every read as JSON.
import { httpStorage, openTable } from '../../src/index.js';
import type { HttpListing } from '../../src/storage/http.js';
import { tableReads } from '../helpers/table-reads.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const params = new URL(request.url).searchParams;
    const url = params.get('url');
    if (url === null) return new Response('missing ?url=', { status: 400 });
    try {
      const table = await openTable(httpStorage(url, { listing: (params.get('listing') ?? 'auto') as HttpListing }));
      return Response.json({ runtime: navigator.userAgent, reads: await tableReads(table) });
    } catch (err) {
      return Response.json({ error: `${(err as Error).name}: ${(err as Error).message}` }, { status: 500 });
    }
  },
};
