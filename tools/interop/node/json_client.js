// Node JSON client: calls the service's ASP.NET AJAX JSON endpoint with the runtime's own fetch, as a
// jQuery or ASP.NET AJAX page does, and runs the scenario on it (nine checks).
//
//   node json_client.js ENDPOINT_URL ID
'use strict';

const [endpoint, id] = process.argv.slice(2);
const FIELDS = ['Id', 'AccountId', 'FirstName', 'LastName', 'PhoneMobile', 'PhoneWork', 'EmailAddress', 'RoleIds'];
let failed = 0;

async function check(name, body) {
  try {
    await body();
    console.log(`PASS node/json ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL node/json ${name}: ${String(e && e.message).replace(/[\r\n]+/g, ' ')}`);
  }
}

function eq(what, want, got) {
  if (JSON.stringify(want) !== JSON.stringify(got)) {
    throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

// call posts the parameters to /sync.asmx/<op> and returns {status, headers, body}.
async function call(op, params) {
  const resp = await fetch(`${endpoint}/${op}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify(params),
  });
  const text = await resp.text();
  return { status: resp.status, headers: resp.headers, body: JSON.parse(text) };
}

async function result(op, params) {
  const r = await call(op, params);
  if (r.status !== 200) throw new Error(`${op}: HTTP ${r.status}: ${JSON.stringify(r.body)}`);
  if (!('d' in r.body)) throw new Error(`${op}: no "d" in ${JSON.stringify(r.body)}`);
  return r.body.d;
}

function checkContact(what, c) {
  eq(`${what} keys, in schema order`, FIELDS, Object.keys(c));
  eq(`${what}.Id`, id, c.Id);
  if (!Array.isArray(c.RoleIds)) throw new Error(`${what}.RoleIds is not an array: ${JSON.stringify(c.RoleIds)}`);
}

(async () => {
  let created;
  await check('VersionMajor is 1', async () => eq('VersionMajor', 1, await result('VersionMajor', {})));
  await check('VersionMinor is 0', async () => eq('VersionMinor', 0, await result('VersionMinor', {})));
  await check('Version is "1.0"', async () => eq('Version', '1.0', await result('Version', {})));
  await check('TestCreateContact', async () => {
    created = await result('TestCreateContact', { id });
    checkContact('created', created);
    eq('FirstName', 'Test', created.FirstName);
  });
  await check('ReadContact equals the created contact', async () => eq('read', created, await result('ReadContact', { id })));
  let updated;
  await check('TestUpdateContact', async () => {
    updated = await result('TestUpdateContact', { id });
    checkContact('updated', updated);
    eq('FirstName', 'Updated', updated.FirstName);
    eq('RoleIds', [...created.RoleIds, 'role-updated'], updated.RoleIds);
  });
  await check('ReadContact equals the update', async () => eq('read', updated, await result('ReadContact', { id })));
  await check('DeleteContact returns the contact', async () => eq('deleted', updated, await result('DeleteContact', { id })));
  await check('ReadContact of the deleted contact fails with NotFound', async () => {
    const r = await call('ReadContact', { id });
    eq('status', 500, r.status);
    eq('jsonerror header', 'true', r.headers.get('jsonerror'));
    eq('ExceptionType', 'NotFound', r.body.ExceptionType);
    eq('Message', `Contact "${id}" does not exist.`, r.body.Message);
    eq('StackTrace', '', r.body.StackTrace);
  });
  process.exit(failed ? 1 : 0);
})();
