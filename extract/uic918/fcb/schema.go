package fcb

// UicRailTicketData of the FCB's versions 1.3, 2.0 and 3.0 (U_FLEX
// versions "13", "02" and "03"; UIC's ASN.1 modules
// uicRailTicketData_v1.3.x, v2.0.x and v3.0.x, Apache-2.0), transcribed
// type by type in the modules' order; comments name the modules' types.
// Version 2.0 changes ranges (times end at 1439, product ids reach
// 65535, a validity's last day and an arrival's day may be the day
// before, twelve travel classes, travellers counted from 1), adds
// components (transport types, a traveler's birth month and day) and
// drops a line's binary zones; 3.0 then counts days back a year, makes
// the issuing time mandatory, and adds a pass's train validity and a
// via station's service brands. since, from and before mark each.
var (
	v13 = schema(13)
	v20 = schema(20)
	v30 = schema(30)
)

func schema(v int) *typ {
	// since is a type that changed in version n: a before it, b from it.
	since := func(n int, a, b *typ) *typ {
		if v >= n {
			return b
		}
		return a
	}
	// from and before keep the components a version n added or dropped:
	// the presence bitmap and the order are the module's.
	from := func(n int, fs ...field) []field {
		if v >= n {
			return fs
		}
		return nil
	}
	before := func(n int, fs ...field) []field {
		if v < n {
			return fs
		}
		return nil
	}
	var (
		rics      = integer(1, 32000)                                    // a company's RICS code
		product   = since(20, integer(0, 32000), integer(0, 65535))      // a product id
		brand     = since(30, integer(0, 32000), integer(0, 65535))      // a reservation's service brand
		station   = integer(1, 9999999)                                  // a UIC station code
		dayOffset = since(30, integer(-1, 700), integer(-367, 700))      // days from the issuing day
		untilDay  = since(20, integer(0, 370), integer(-1, 370))         // days from the first valid day
		minutes   = since(20, integer(0, 1440), integer(0, 1439))        // minutes of the day
		utcOffset = integer(-60, 60)                                     // quarters of an hour
		codeTable = enumerated(5, false)                                 // CodeTableType
		class     = since(20, enumerated(8, true), enumerated(12, true)) // TravelClassType
		passenger = enumerated(8, true)                                  // PassengerType
		level     = ia5Size(1, 2)                                        // serviceLevel
		ricsList  = seqOf(rics)                                          // carrierNum, service brands
		ia5List   = seqOf(tIA5)                                          // carrierIA5
		dayList   = seqOf(integer(0, 370))                               // activatedDay
		modes     = seqOf(integer(0, 31))                                // 2.0: transport types (EN 1545-1)
	)

	// ExtensionData
	extension := seqType(false, req("extensionId", tIA5), req("extensionData", tOctets))

	// GeoCoordinateType, DeltaCoordinates, PolygoneType
	geo := seqType(false,
		opt("geoUnit", enumerated(5, false)),
		opt("coordinateSystem", enumerated(2, false)),
		opt("hemisphereLongitude", enumerated(2, false)),
		opt("hemisphereLatitude", enumerated(2, false)),
		req("longitude", tInt),
		req("latitude", tInt),
		opt("accuracy", enumerated(5, false)))
	polygone := seqType(false,
		req("firstEdge", geo),
		req("edges", seqOf(seqType(false, req("longitude", tInt), req("latitude", tInt)))))

	// TrainLinkType
	trainLink := seqType(false,
		opt("trainNum", tInt),
		opt("trainIA5", tIA5),
		req("travelDate", integer(-1, 370)),
		req("departureTime", minutes),
		opt("departureUTCOffset", utcOffset),
		opt("fromStationNum", station),
		opt("fromStationIA5", tIA5),
		opt("toStationNum", station),
		opt("toStationIA5", tIA5),
		opt("fromStationNameUTF8", tUTF8),
		opt("toStationNameUTF8", tUTF8))

	// ViaStationType: recursive through its alternative routes.
	via := &typ{}
	*via = *seqType(true,
		opt("stationCodeTable", codeTable),
		opt("stationNum", station),
		opt("stationIA5", tIA5),
		opt("alternativeRoutes", seqOf(via)),
		opt("route", seqOf(via)),
		req("border", tBool),
		opt("carrierNum", ricsList),
		opt("carrierIA5", ia5List),
		opt("seriesId", tInt),
		opt("routeId", tInt),
		from(30, opt("includedServiceBrands", ricsList), opt("excludedServiceBrands", ricsList)))

	// ZoneType
	zone := seqType(true,
		opt("carrierNum", rics),
		opt("carrierIA5", tIA5),
		opt("stationCodeTable", codeTable),
		opt("entryStationNum", station),
		opt("entryStationIA5", tIA5),
		opt("terminatingStationNum", station),
		opt("terminatingStationIA5", tIA5),
		opt("city", tInt),
		opt("zoneId", seqOf(tInt)),
		opt("binaryZoneId", tOctets),
		opt("nutsCode", tIA5))

	// LineType
	line := seqType(true,
		opt("carrierNum", rics),
		opt("carrierIA5", tIA5),
		opt("lineId", seqOf(tInt)),
		opt("stationCodeTable", codeTable),
		opt("entryStationNum", station),
		opt("entryStationIA5", tIA5),
		opt("terminatingStationNum", station),
		opt("terminatingStationIA5", tIA5),
		opt("city", since(20, station, tInt)),
		before(20, opt("binaryZoneId", tOctets)))

	// RegionalValidityType
	region := choiceType(true,
		alternative("trainLink", trainLink),
		alternative("viaStations", via),
		alternative("zones", zone),
		alternative("lines", line),
		alternative("polygone", polygone))
	regions := seqOf(region)

	// ReturnRouteDescriptionType
	returnRoute := seqType(true,
		opt("fromStationNum", station),
		opt("fromStationIA5", tIA5),
		opt("toStationNum", station),
		opt("toStationIA5", tIA5),
		opt("fromStationNameUTF8", tUTF8),
		opt("toStationNameUTF8", tUTF8),
		opt("validReturnRegionDesc", tUTF8),
		opt("validReturnRegion", regions))

	// CardReferenceType
	cardRef := seqType(true,
		opt("cardIssuerNum", rics),
		opt("cardIssuerIA5", tIA5),
		opt("cardIdNum", tInt),
		opt("cardIdIA5", tIA5),
		opt("cardName", tUTF8),
		opt("cardType", tInt),
		opt("leadingCardIdNum", tInt),
		opt("leadingCardIdIA5", tIA5),
		opt("trailingCardIdNum", tInt),
		opt("trailingCardIdIA5", tIA5))

	// RouteSectionType, SeriesDetailType, TariffType
	routeSection := seqType(false,
		opt("stationCodeTable", codeTable),
		opt("fromStationNum", station),
		opt("fromStationIA5", tIA5),
		opt("toStationNum", station),
		opt("toStationIA5", tIA5),
		opt("fromStationNameUTF8", tUTF8),
		opt("toStationNameUTF8", tUTF8))
	series := seqType(false,
		opt("supplyingCarrier", rics),
		opt("offerIdentification", integer(1, 99)),
		opt("series", tInt))
	tariff := seqType(true,
		opt("numberOfPassengers", integer(1, 200)),
		opt("passengerType", passenger),
		opt("ageBelow", integer(1, 64)),
		opt("ageAbove", integer(1, 128)),
		opt("travelerid", seqOf(since(20, integer(0, 254), integer(1, 254)))),
		req("restrictedToCountryOfResidence", tBool),
		opt("restrictedToRouteSection", routeSection),
		opt("seriesDataDetails", series),
		opt("tariffIdNum", tInt),
		opt("tariffIdIA5", tIA5),
		opt("tariffDesc", tUTF8),
		opt("reductionCard", seqOf(cardRef)))
	tariffs := seqOf(tariff)

	// VatDetailType
	vat := seqOf(seqType(false,
		req("country", integer(1, 999)),
		req("percentage", integer(0, 999)),
		opt("amount", tInt),
		opt("vatId", tIA5)))

	// LuggageRestrictionType, RegisteredLuggageType
	luggage := seqType(true,
		opt("maxHandLuggagePieces", integer(0, 99)),
		opt("maxNonHandLuggagePieces", integer(0, 99)),
		opt("registeredLuggage", seqOf(seqType(true,
			opt("registrationId", tIA5),
			opt("maxWeight", integer(1, 99)),
			opt("maxSize", integer(1, 300))))))

	// TicketLinkType
	ticketLink := seqType(true,
		opt("referenceIA5", tIA5),
		opt("referenceNum", tInt),
		opt("issuerName", tUTF8),
		opt("issuerPNR", tIA5),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("ticketType", enumerated(4, true)),
		opt("linkMode", enumerated(2, true)))

	// PlacesType, BerthDetailData, CompartmentDetailsType
	places := seqType(false,
		opt("coach", tIA5),
		opt("placeString", tIA5),
		opt("placeDescription", tUTF8),
		opt("placeIA5", ia5List),
		opt("placeNum", seqOf(integer(1, 254))))
	berth := seqType(true,
		req("berthType", enumerated(6, false)),
		req("numberOfBerths", integer(1, 999)),
		opt("gender", enumerated(5, true)))
	compartment := seqType(true,
		opt("coachType", integer(1, 99)),
		opt("compartmentType", integer(1, 99)),
		opt("specialAllocation", integer(1, 99)),
		opt("coachTypeDescr", tUTF8),
		opt("compartmentTypeDescr", tUTF8),
		opt("specialAllocationDescr", tUTF8),
		opt("position", enumerated(3, false)))

	// TravelerType, CustomerStatusType, TravelerData
	traveler := seqType(true,
		opt("firstName", tUTF8),
		opt("secondName", tUTF8),
		opt("lastName", tUTF8),
		opt("idCard", tIA5),
		opt("passportId", tIA5),
		opt("title", ia5Size(1, 3)),
		opt("gender", enumerated(4, true)),
		opt("customerIdIA5", tIA5),
		opt("customerIdNum", tInt),
		opt("yearOfBirth", integer(1901, 2155)),
		before(20, opt("dayOfBirth", integer(0, 370))),
		from(20, opt("monthOfBirth", integer(1, 12)), opt("dayOfBirthInMonth", integer(1, 31))),
		req("ticketHolder", tBool),
		opt("passengerType", passenger),
		opt("passengerWithReducedMobility", tBool),
		opt("countryOfResidence", integer(1, 999)),
		opt("countryOfPassport", integer(1, 999)),
		opt("countryOfIdCard", integer(1, 999)),
		opt("status", seqOf(seqType(false,
			opt("statusProviderNum", rics),
			opt("statusProviderIA5", tIA5),
			opt("customerStatus", tInt),
			opt("customerStatusDescr", tIA5)))))
	travelerData := seqType(true,
		opt("traveler", seqOf(traveler)),
		opt("preferredLanguage", ia5Size(2, 2)),
		opt("groupName", tUTF8))

	// ReservationData
	reservation := seqType(true,
		opt("trainNum", tInt),
		opt("trainIA5", tIA5),
		opt("departureDate", integer(-1, 370)),
		opt("referenceIA5", tIA5),
		opt("referenceNum", tInt),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		opt("serviceBrand", brand),
		opt("serviceBrandAbrUTF8", tUTF8),
		opt("serviceBrandNameUTF8", tUTF8),
		opt("service", enumerated(4, false)),
		opt("stationCodeTable", codeTable),
		opt("fromStationNum", station),
		opt("fromStationIA5", tIA5),
		opt("toStationNum", station),
		opt("toStationIA5", tIA5),
		opt("fromStationNameUTF8", tUTF8),
		opt("toStationNameUTF8", tUTF8),
		req("departureTime", minutes),
		opt("departureUTCOffset", utcOffset),
		opt("arrivalDate", since(20, integer(0, 20), integer(-1, 20))),
		opt("arrivalTime", minutes),
		opt("arrivalUTCOffset", utcOffset),
		opt("carrierNum", ricsList),
		opt("carrierIA5", ia5List),
		opt("classCode", class),
		opt("serviceLevel", level),
		opt("places", places),
		opt("additionalPlaces", places),
		opt("bicyclePlaces", places),
		opt("compartmentDetails", compartment),
		opt("numberOfOverbooked", integer(0, 200)),
		opt("berth", seqOf(berth)),
		opt("tariff", tariffs),
		opt("priceType", enumerated(4, false)),
		opt("price", tInt),
		opt("vatDetail", vat),
		opt("typeOfSupplement", integer(0, 9)),
		opt("numberOfSupplements", integer(0, 200)),
		opt("luggage", luggage),
		opt("infoText", tUTF8),
		opt("extension", extension))

	// IncludedOpenTicketType
	addOn := seqType(true,
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		opt("externalIssuerId", tInt),
		opt("issuerAuthorizationId", tInt),
		opt("stationCodeTable", codeTable),
		opt("validRegion", regions),
		opt("validFromDay", dayOffset),
		opt("validFromTime", minutes),
		opt("validFromUTCOffset", utcOffset),
		opt("validUntilDay", untilDay),
		opt("validUntilTime", minutes),
		opt("validUntilUTCOffset", utcOffset),
		opt("classCode", class),
		opt("serviceLevel", level),
		opt("carrierNum", ricsList),
		opt("carrierIA5", ia5List),
		opt("includedServiceBrands", ricsList),
		opt("excludedServiceBrands", ricsList),
		opt("tariffs", tariffs),
		opt("infoText", tUTF8),
		from(20, opt("includedTransportType", modes), opt("excludedTransportType", modes)),
		opt("extension", extension))

	// OpenTicketData
	openTicket := seqType(true,
		opt("referenceNum", tInt),
		opt("referenceIA5", tIA5),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		opt("extIssuerId", tInt),
		opt("issuerAuthorizationId", tInt),
		req("returnIncluded", tBool),
		opt("stationCodeTable", codeTable),
		opt("fromStationNum", station),
		opt("fromStationIA5", tIA5),
		opt("toStationNum", station),
		opt("toStationIA5", tIA5),
		opt("fromStationNameUTF8", tUTF8),
		opt("toStationNameUTF8", tUTF8),
		opt("validRegionDesc", tUTF8),
		opt("validRegion", regions),
		opt("returnDescription", returnRoute),
		opt("validFromDay", dayOffset),
		opt("validFromTime", minutes),
		opt("validFromUTCOffset", utcOffset),
		opt("validUntilDay", untilDay),
		opt("validUntilTime", minutes),
		opt("validUntilUTCOffset", utcOffset),
		opt("activatedDay", dayList),
		opt("classCode", class),
		opt("serviceLevel", level),
		opt("carrierNum", ricsList),
		opt("carrierIA5", ia5List),
		opt("includedServiceBrands", ricsList),
		opt("excludedServiceBrands", ricsList),
		opt("tariffs", tariffs),
		opt("price", tInt),
		opt("vatDetail", vat),
		opt("infoText", tUTF8),
		opt("includedAddOns", seqOf(addOn)),
		opt("luggage", luggage),
		from(20, opt("includedTransportType", modes), opt("excludedTransportType", modes)),
		opt("extension", extension))

	// ValidityPeriodDetailType, ValidityPeriodType, TimeRangeType
	periods := seqType(false,
		opt("validityPeriod", seqOf(seqType(false,
			opt("validFromDay", dayOffset),
			opt("validFromTime", minutes),
			opt("validFromUTCOffset", utcOffset),
			opt("validUntilDay", untilDay),
			opt("validUntilTime", minutes),
			opt("validUntilUTCOffset", utcOffset)))),
		opt("excludedTimeRange", seqOf(seqType(false,
			req("fromTime", minutes),
			req("untilTime", minutes)))))

	// TrainValidityType (3.0)
	trainValidity := seqType(true,
		opt("validFromDay", dayOffset),
		opt("validFromTime", minutes),
		opt("validFromUTCOffset", utcOffset),
		opt("validUntilDay", untilDay),
		opt("validUntilTime", minutes),
		opt("validUntilUTCOffset", utcOffset),
		opt("includedCarrierNum", ricsList),
		opt("includedCarrierIA5", ia5List),
		opt("excludedCarrierNum", ricsList),
		opt("excludedCarrierIA5", ia5List),
		opt("includedServiceBrands", ricsList),
		opt("excludedServiceBrands", ricsList),
		opt("boardingOrArrival", enumerated(2, true)))

	// PassData
	pass := seqType(true,
		opt("referenceNum", tInt),
		opt("referenceIA5", tIA5),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		opt("passType", integer(1, 250)),
		opt("passDescription", tUTF8),
		opt("classCode", class),
		opt("validFromDay", dayOffset),
		opt("validFromTime", minutes),
		opt("validFromUTCOffset", utcOffset),
		opt("validUntilDay", untilDay),
		opt("validUntilTime", minutes),
		opt("validUntilUTCOffset", utcOffset),
		opt("validityPeriodDetails", periods),
		opt("numberOfValidityDays", integer(0, 370)),
		from(30, opt("trainValidity", trainValidity)),
		opt("numberOfPossibleTrips", integer(1, 250)),
		opt("numberOfDaysOfTravel", integer(1, 250)),
		opt("activatedDay", dayList),
		opt("countries", seqOf(integer(1, 250))),
		opt("includedCarrierNum", ricsList),
		opt("includedCarrierIA5", ia5List),
		opt("excludedCarrierNum", ricsList),
		opt("excludedCarrierIA5", ia5List),
		opt("includedServiceBrands", ricsList),
		opt("excludedServiceBrands", ricsList),
		opt("validRegion", regions),
		opt("tariffs", tariffs),
		opt("price", tInt),
		opt("vatDetail", vat),
		opt("infoText", tUTF8),
		opt("extension", extension))

	// VoucherData
	voucher := seqType(true,
		opt("referenceIA5", tIA5),
		opt("referenceNum", tInt),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		req("validFromYear", integer(2016, 2269)),
		req("validFromDay", integer(0, 370)),
		req("validUntilYear", integer(2016, 2269)),
		req("validUntilDay", integer(0, 370)),
		opt("value", tInt),
		opt("type", rics),
		opt("infoText", tUTF8),
		opt("extension", extension))

	// CustomerCardData
	customerCard := seqType(true,
		opt("customer", traveler),
		opt("cardIdIA5", tIA5),
		opt("cardIdNum", tInt),
		req("validFromYear", integer(2016, 2269)),
		opt("validFromDay", integer(0, 370)),
		opt("validUntilYear", integer(0, 250)),
		opt("validUntilDay", integer(0, 370)),
		opt("classCode", class),
		opt("cardType", integer(1, 1000)),
		opt("cardTypeDescr", tUTF8),
		opt("customerStatus", tInt),
		opt("customerStatusDescr", tIA5),
		opt("includedServices", seqOf(tInt)),
		opt("extension", extension))

	// CountermarkData
	counterMark := seqType(true,
		opt("referenceIA5", tIA5),
		opt("referenceNum", tInt),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		opt("ticketReferenceIA5", tIA5),
		opt("ticketReferenceNum", tInt),
		req("numberOfCountermark", integer(1, 200)),
		req("totalOfCountermarks", integer(1, 200)),
		req("groupName", tUTF8),
		opt("stationCodeTable", codeTable),
		opt("fromStationNum", station),
		opt("fromStationIA5", tIA5),
		opt("toStationNum", station),
		opt("toStationIA5", tIA5),
		opt("fromStationNameUTF8", tUTF8),
		opt("toStationNameUTF8", tUTF8),
		opt("validRegionDesc", tUTF8),
		opt("validRegion", regions),
		req("returnIncluded", tBool),
		opt("returnDescription", returnRoute),
		opt("validFromDay", dayOffset),
		opt("validFromTime", minutes),
		opt("validFromUTCOffset", utcOffset),
		opt("validUntilDay", untilDay),
		opt("validUntilTime", minutes),
		opt("validUntilUTCOffset", utcOffset),
		opt("classCode", class),
		opt("carrierNum", ricsList),
		opt("carrierIA5", ia5List),
		opt("includedServiceBrands", ricsList),
		opt("excludedServiceBrands", ricsList),
		opt("infoText", tUTF8),
		opt("extension", extension))

	// ParkingGroundData
	parking := seqType(true,
		opt("referenceIA5", tIA5),
		opt("referenceNum", tInt),
		req("parkingGroundId", tIA5),
		req("fromParkingDate", since(30, integer(-1, 370), integer(-367, 370))),
		opt("untilParkingDate", integer(0, 370)),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		opt("accessCode", tIA5),
		req("location", tUTF8),
		opt("stationCodeTable", codeTable),
		opt("stationNum", tInt),
		opt("stationIA5", tUTF8),
		opt("specialInformation", tUTF8),
		opt("entryTrack", tUTF8),
		opt("numberPlate", tIA5),
		opt("price", tInt),
		opt("vatDetail", vat),
		opt("extension", extension))

	// FIPTicketData
	fip := seqType(true,
		opt("referenceIA5", tIA5),
		opt("referenceNum", tInt),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		opt("validFromDay", dayOffset),
		opt("validUntilDay", untilDay),
		opt("activatedDay", dayList),
		opt("carrierNum", ricsList),
		opt("carrierIA5", ia5List),
		req("numberOfTravelDays", integer(1, 200)),
		req("includesSupplements", tBool),
		opt("classCode", class),
		opt("extension", extension))

	// StationPassageData
	passage := seqType(true,
		opt("referenceIA5", tIA5),
		opt("referenceNum", tInt),
		opt("productOwnerNum", rics),
		opt("productOwnerIA5", tIA5),
		opt("productIdNum", product),
		opt("productIdIA5", tIA5),
		opt("productName", tUTF8),
		opt("stationCodeTable", codeTable),
		opt("stationNum", seqOf(tInt)),
		opt("stationIA5", ia5List),
		opt("stationNameUTF8", seqOf(tUTF8)),
		opt("areaCodeNum", seqOf(tInt)),
		opt("areaCodeIA5", ia5List),
		opt("areaNameUTF8", seqOf(tUTF8)),
		req("validFromDay", dayOffset),
		opt("validFromTime", minutes),
		opt("validFromUTCOffset", utcOffset),
		opt("validUntilDay", untilDay),
		opt("validUntilTime", minutes),
		opt("validUntilUTCOffset", utcOffset),
		opt("numberOfDaysValid", tInt),
		opt("extension", extension))

	// DelayConfirmation
	delay := seqType(true,
		opt("referenceIA5", tIA5),
		opt("referenceNum", tInt),
		opt("trainNum", tInt),
		opt("trainIA5", tIA5),
		opt("departureYear", integer(2016, 2269)),
		opt("departureDay", integer(1, 366)),
		opt("departureTime", minutes),
		opt("departureUTCOffset", utcOffset),
		opt("stationCodeTable", codeTable),
		opt("stationNum", station),
		opt("stationIA5", tIA5),
		req("delay", integer(1, 999)),
		req("trainCancelled", tBool),
		opt("confirmationType", enumerated(3, true)),
		opt("affectedTickets", seqOf(ticketLink)),
		opt("infoText", tUTF8),
		opt("extension", extension))

	// DocumentData: a car carriage's reservation is not transcribed (no
	// journey a mail needs from it): a ticket holding one reads nothing.
	document := seqType(true,
		opt("token", seqType(false,
			opt("tokenProviderNum", tInt),
			opt("tokenProviderIA5", tIA5),
			opt("tokenSpecification", tIA5),
			req("token", tOctets))),
		req("ticket", choiceType(true,
			alternative("reservation", reservation),
			alternative("carCarriageReservation", nil),
			alternative("openTicket", openTicket),
			alternative("pass", pass),
			alternative("voucher", voucher),
			alternative("customerCard", customerCard),
			alternative("counterMark", counterMark),
			alternative("parkingGround", parking),
			alternative("fipTicket", fip),
			alternative("stationPassage", passage),
			alternative("extension", extension),
			alternative("delayConfirmation", delay))))

	// IssuingData
	issuing := seqType(true,
		opt("securityProviderNum", rics),
		opt("securityProviderIA5", tIA5),
		opt("issuerNum", rics),
		opt("issuerIA5", tIA5),
		req("issuingYear", integer(2016, 2269)),
		req("issuingDay", integer(1, 366)),
		before(30, opt("issuingTime", minutes)),
		from(30, req("issuingTime", minutes)),
		opt("issuerName", tUTF8),
		req("specimen", tBool),
		req("securePaperTicket", tBool),
		req("activated", tBool),
		opt("currency", ia5Size(3, 3)),
		opt("currencyFract", integer(1, 3)),
		opt("issuerPNR", tIA5),
		opt("extension", extension),
		opt("issuedOnTrainNum", tInt),
		opt("issuedOnTrainIA5", tIA5),
		opt("issuedOnLine", tInt),
		opt("pointOfSale", geo))

	// ControlData
	control := seqType(true,
		opt("identificationByCardReference", seqOf(cardRef)),
		req("identificationByIdCard", tBool),
		req("identificationByPassportId", tBool),
		opt("identificationItem", tInt),
		req("passportValidationRequired", tBool),
		req("onlineValidationRequired", tBool),
		opt("randomDetailedValidationRequired", integer(0, 99)),
		req("ageCheckRequired", tBool),
		req("reductionCardCheckRequired", tBool),
		opt("infoText", tUTF8),
		opt("includedTickets", seqOf(ticketLink)),
		opt("extension", extension))

	// UicRailTicketData
	return seqType(true,
		req("issuingDetail", issuing),
		opt("travelerDetail", travelerData),
		opt("transportDocument", seqOf(document)),
		opt("controlDetail", control),
		opt("extension", seqOf(extension)))
}
