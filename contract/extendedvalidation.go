package contract

// The router's extended validation of a route's TLS material (upstream:
// openshift/router pkg/router/controller/extended_validator.go and
// pkg/router/routeapihelpers/validation.go ExtendedValidateRoute): a route
// it refuses gets Admitted False with this reason and the aggregate of
// the field errors as the message.
const ReasonExtendedValidationFailed = "ExtendedValidationFailed"

// KeyPairMismatchRejection is the message of a route whose key is not its
// certificate's: field.Invalid on spec.tls.key with the redacted value
// and crypto/tls's own error.
const KeyPairMismatchRejection = `spec.tls.key: Invalid value: "redacted key data": tls: private key does not match public key`

// DestinationCAUnparsableRejection is the message of a reencrypt route
// whose destinationCACertificate holds no PEM certificate (client-go
// cert.ParseCertsPEM's error, wrapped by ExtendedValidateRoute).
const DestinationCAUnparsableRejection = `spec.tls.destinationCACertificate: Invalid value: "redacted destination ca certificate data": failed to parse destination CA certificate: data does not contain any valid RSA or ECDSA certificates`

// The first field error of a route whose own PEM fields are malformed, in
// ExtendedValidateRoute's order: the CA certificate, the certificate,
// then no key at all (what is not PEM is dropped). Upstream's message
// aggregates every field error ("[e1, e2]"); a spec matches the first.
const (
	CACertificateUnparsableRejection = `spec.tls.caCertificate: Invalid value: "redacted ca certificate data": failed to parse CA certificate: data does not contain any valid RSA or ECDSA certificates`
	CertificateUnparsableRejection   = `spec.tls.certificate: Invalid value: "redacted certificate data": data does not contain any valid RSA or ECDSA certificates`
	NoKeyRejection                   = `spec.tls.key: Invalid value: "": no key specified`
)
