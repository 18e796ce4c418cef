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
