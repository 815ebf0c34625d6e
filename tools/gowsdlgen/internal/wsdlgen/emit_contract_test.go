package wsdlgen_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdlgen"
)

// serviceElement is the wsdl:service ASMX writes for arrayWSDL's SOAP binding, at a path of its own.
const serviceElement = `<service name="Service1"><port name="S" binding="tns:B"><soap:address location="http://tempuri.example/svc/Service1.asmx" /></port></service>
</definitions>`

// TestGenerateDescribesContract: the wire code carries the contract's descriptor, which Bind hands the
// runtime: the service's name, the namespace as written, whether it is rebased (-rebase-namespace),
// the address and its path, and the document without its comments; only a URL namespace can be
// rebased.
func TestGenerateDescribesContract(t *testing.T) {
	wsdl := strings.Replace(fmt.Sprintf(arrayWSDL, "", "", arrayParts), "</definitions>", "<!-- a note for maintainers -->\n"+serviceElement, 1)
	wsdl = strings.ReplaceAll(wsdl, "urn:t/", "http://tempuri.org/")
	for _, rebase := range []bool{false, true} {
		t.Run(fmt.Sprint("rebase ", rebase), func(t *testing.T) {
			res, err := wsdlgen.Generate([]byte(wsdl), wsdlgen.Options{Package: "p", Wire: true, RebaseNamespace: rebase,
				Gowsdl: (&fakeGowsdl{sections: arraySections(arrayTypes)}).run})
			require.NoError(t, err)
			code := string(res.Wire)
			assert.Contains(t, code, `Service:         "Service1",`)
			assert.Contains(t, code, `Namespace:       "http://tempuri.org/",`)
			assert.Contains(t, code, fmt.Sprintf(`RebaseNamespace: %v,`, rebase))
			assert.Contains(t, code, `Address:         "http://tempuri.example/svc/Service1.asmx",`)
			assert.Contains(t, code, `Path:            "/svc/Service1.asmx",`)
			assert.Contains(t, code, "wire.Bound{Contract: Contract, Ops: Operations,")
			assert.Contains(t, code, "const contractDocument = `<definitions")
			assert.NotContains(t, code, "a note for maintainers", "the document served carries no comment")
		})
	}

	t.Run("a namespace that is no URL is not rebased", func(t *testing.T) {
		urn := strings.ReplaceAll(wsdl, "http://tempuri.org/", "urn:t/")
		res, err := wsdlgen.Generate([]byte(urn), wsdlgen.Options{Package: "p", Wire: true, Gowsdl: (&fakeGowsdl{sections: arraySections(arrayTypes)}).run})
		require.NoError(t, err)
		assert.Contains(t, string(res.Wire), `Namespace:       "urn:t/",`)
		_, err = wsdlgen.Generate([]byte(urn), wsdlgen.Options{Package: "p", Wire: true, RebaseNamespace: true,
			Gowsdl: (&fakeGowsdl{sections: arraySections(arrayTypes)}).run})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `-rebase-namespace: the target namespace "urn:t/" is not an absolute http or https URL`)
	})

	t.Run("a document a raw string cannot hold is quoted", func(t *testing.T) {
		backquoted := strings.Replace(wsdl, "<types>", "<documentation>run `make`</documentation><types>", 1)
		res, err := wsdlgen.Generate([]byte(backquoted), wsdlgen.Options{Package: "p", Wire: true,
			Gowsdl: (&fakeGowsdl{sections: arraySections(arrayTypes)}).run})
		require.NoError(t, err)
		assert.Contains(t, string(res.Wire), "const contractDocument = "+strings.TrimSuffix(strconv.Quote(backquoted[:40]), `"`))
	})
}
