// Node interop client: the npm `soap` package (pinned in package.json) imports the live ?WSDL and runs
// the scenario on one port.
//
//   node client.js WSDL_URL soap11|soap12 ID
'use strict';

const soap = require('soap');

const PORTS = { soap11: 'SyncServiceSoap', soap12: 'SyncServiceSoap12' };
const FIELDS = ['Id', 'AccountId', 'FirstName', 'LastName', 'PhoneMobile', 'PhoneWork', 'EmailAddress'];

let label = '';
let failed = 0;

async function check(name, body) {
  try {
    await body();
    console.log(`PASS ${label} ${name}`);
  } catch (e) {
    failed++;
    const msg = String(e && e.message).replace(/[\r\n]+/g, ' ');
    console.log(`FAIL ${label} ${name}: ${(e && e.name) || 'Error'}: ${msg}`);
  }
}

function eq(what, want, got) {
  if (JSON.stringify(want) !== JSON.stringify(got)) {
    throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

function expect(what, ok, rec) {
  if (!ok) throw new Error(`want ${what}` + (rec ? ` in ${JSON.stringify(rec)}` : ''));
}

const ENVELOPE = {
  soap11: 'http://schemas.xmlsoap.org/soap/envelope/',
  soap12: 'http://www.w3.org/2003/05/soap-envelope',
};
let envelope = '';

// call invokes an operation on the generated port object; it resolves to
// [result, rawResponse, soapHeader, rawRequest] as node-soap's *Async methods do, after making
// sure the request really used the binding's SOAP version (node-soap picks SOAP 1.2 only when
// told to with forceSoap12Headers, whatever the port's binding says).
function call(port, op, args) {
  return new Promise((resolve, reject) => {
    port[op](
      args,
      (err, res, raw, header, rawRequest) => {
        if (rawRequest && !rawRequest.includes(`"${envelope}"`)) {
          reject(new Error(`request was not sent in the ${envelope} envelope: ${rawRequest}`));
        } else if (err) {
          reject(err);
        } else {
          resolve([res, raw, header, rawRequest]);
        }
      },
      { timeout: 30000 },
    );
  });
}

// result is what node-soap resolves an operation to: [result, rawResponse, soapHeader, rawRequest].
function result(res, name) {
  const body = res[0];
  if (!body || !(name in body)) throw new Error(`no ${name} in the response: ${JSON.stringify(body)}`);
  return body[name];
}

// record copies every field of a Contact, RoleIds as a list (node-soap gives a lone
// <string> as a scalar and several as an array).
function record(c) {
  if (c == null) throw new Error('no Contact in the response');
  const rec = {};
  for (const f of FIELDS) rec[f] = c[f] === undefined ? null : c[f];
  const roles = c.RoleIds == null ? null : c.RoleIds.string;
  rec.RoleIds = roles == null ? null : [].concat(roles);
  return rec;
}

function expectCreated(c, id) {
  eq('Id', id, c.Id);
  const a = c.AccountId || '';
  expect('AccountId ACC-xxxxxxxx', a.startsWith('ACC-') && a.length === 12, c);
  eq('FirstName', 'Test', c.FirstName);
  const ln = c.LastName || '';
  expect('LastName Contact xxxxxx', ln.startsWith('Contact ') && ln.length === 14, c);
  expect('PhoneMobile non-empty', !!c.PhoneMobile, c);
  expect('PhoneWork non-empty', !!c.PhoneWork, c);
  const em = c.EmailAddress || '';
  expect('EmailAddress test.xxxxxxxx@example.com', em.startsWith('test.') && em.endsWith('@example.com'), c);
  const r = c.RoleIds || [];
  expect('RoleIds [role-user, role-xxxx]', r.length === 2 && r[0] === 'role-user' && r[1].startsWith('role-'), c);
}

function expectUpdateOf(u, c) {
  if (!c) throw new Error('nothing to compare with: an earlier step failed');
  for (const f of ['Id', 'AccountId', 'LastName', 'PhoneMobile']) eq(f, c[f], u[f]);
  eq('FirstName', 'Updated', u.FirstName);
  expect('PhoneWork changed', !!u.PhoneWork && u.PhoneWork !== c.PhoneWork, u);
  eq('EmailAddress', 'updated.' + c.EmailAddress.slice('test.'.length), u.EmailAddress);
  eq('RoleIds', c.RoleIds.concat(['role-updated']), u.RoleIds);
}

function expectEqual(got, want) {
  if (!want) throw new Error('nothing to compare with: an earlier step failed');
  eq('contact', want, got);
}

async function scenario(svc, binding, id) {
  await check('VersionMajor', async () => eq('result', 1, Number(result(await call(svc, 'VersionMajor', {}), 'VersionMajorResult'))));
  await check('VersionMinor', async () => eq('result', 0, Number(result(await call(svc, 'VersionMinor', {}), 'VersionMinorResult'))));
  await check('Version', async () => eq('result', '1.0', result(await call(svc, 'Version', {}), 'VersionResult')));

  let created = null;
  let updated = null;
  await check('TestCreateContact', async () => {
    created = record(result(await call(svc, 'TestCreateContact', { id }), 'TestCreateContactResult'));
    expectCreated(created, id);
  });
  await check('ReadContact equals created', async () =>
    expectEqual(record(result(await call(svc, 'ReadContact', { id }), 'ReadContactResult')), created));
  await check('TestUpdateContact', async () => {
    updated = record(result(await call(svc, 'TestUpdateContact', { id }), 'TestUpdateContactResult'));
    expectUpdateOf(updated, created);
  });
  await check('ReadContact equals updated', async () =>
    expectEqual(record(result(await call(svc, 'ReadContact', { id }), 'ReadContactResult')), updated));
  await check('DeleteContact returns updated', async () =>
    expectEqual(record(result(await call(svc, 'DeleteContact', { id }), 'DeleteContactResult')), updated));
  await check('ReadContact after delete is NotFound', async () => {
    let fault;
    try {
      await call(svc, 'ReadContact', { id });
    } catch (e) {
      // node-soap rejects with an Error whose .root is the parsed fault envelope.
      fault = e.root && e.root.Envelope && e.root.Envelope.Body && e.root.Envelope.Body.Fault;
      if (!fault) throw e;
    }
    if (!fault) throw new Error('ReadContact succeeded after DeleteContact');
    const want = `Contact "${id}" does not exist.`;
    if (binding === 'soap12') {
      eq('fault code', 'Sender', String(fault.Code.Value).split(':').pop());
      eq('fault subcode', 'NotFound', String(fault.Code.Subcode.Value).split(':').pop());
      const text = fault.Reason.Text;
      eq('fault message', want, typeof text === 'object' ? text.$value : text);
      eq('fault detail ErrorCode', 'NotFound', fault.Detail && fault.Detail.ErrorCode);
    } else {
      eq('fault code', 'Client', String(fault.faultcode).split(':').pop());
      eq('fault message', want, fault.faultstring);
      eq('fault detail ErrorCode', 'NotFound', fault.detail && fault.detail.ErrorCode);
    }
  });
}

async function main() {
  const [wsdl, binding, id] = process.argv.slice(2);
  if (!wsdl || !PORTS[binding] || !id) {
    console.error('usage: node client.js WSDL_URL soap11|soap12 ID');
    return 2;
  }
  label = 'node/' + binding;
  envelope = ENVELOPE[binding];
  const opts = { wsdl_options: { timeout: 10000 } };
  if (binding === 'soap12') opts.forceSoap12Headers = true;
  const client = await soap.createClientAsync(wsdl, opts);
  const svc = client.SyncService[PORTS[binding]];
  if (!svc) throw new Error(`port ${PORTS[binding]} not in the imported WSDL`);
  await scenario(svc, binding, id);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
