package extract

import (
	"strings"
	"testing"
	"time"
)

// TestReturnPolicyIsNoReturn: a return's possibility, period or policy in
// a shop's first lines is no return (status.return_policy); a return done
// still is one, and a parcel the shop received is no delivery.
func TestReturnPolicyIsNoReturn(t *testing.T) {
	for _, c := range []struct{ subject, text, want string }{
		// The fifth outside review's mails.
		{"About your order 48392011", "Hello,\n\nYour order (order number 48392011) has shipped.\nFree return within 30 days.\n\nTotal: 329.00 EUR\n", StatusShipped},
		{"Інформація про замовлення №483920", "Добрий день!\n\nВаше замовлення №483920 відправлено.\nНомер ТТН: 20450012345678\nПовернення товару можливе протягом 14 днів.\n", StatusShipped},
		{"Ενημέρωση για την παραγγελία 48392011", "Γεια σας,\n\nΗ παραγγελία σας (αριθμός παραγγελίας 48392011) απεστάλη.\nΔωρεάν επιστροφή εντός 30 ημερών.\n", StatusShipped},
		// Other languages' footers.
		{"Ihre Bestellung 55120", "Ihre Bestellung wurde versandt.\nKostenlose Rücksendung innerhalb von 30 Tagen.\n", StatusShipped},
		{"Votre commande 55120", "Votre commande a été expédiée.\nRetour gratuit sous 30 jours.\n", StatusShipped},
		{"Tu pedido 55120", "Tu pedido ha sido enviado.\nDevolución gratuita en un plazo de 30 días.\n", StatusShipped},
		{"Zamówienie 55120", "Twoja paczka została wysłana.\nDarmowy zwrot w ciągu 30 dni.\n", StatusShipped},
		{"Ваш заказ 55120", "Ваш заказ отправлен.\nВозврат возможен в течение 14 дней.\n", StatusShipped},
		{"Your order 55120", "Your order has shipped.\nItems can be returned for 30 days; see our return policy.\n", StatusShipped},
		{"Нарачка 55120", "Вашата нарачка е испратена.\nБесплатно враќање во рок од 14 дена.\n", StatusShipped},
		{"Нарачката 55120 е примена", "Вашата нарачка е примена и се обработува.\n", StatusOrdered},
		{"ご注文の発送", "ご注文の商品を発送しました。\n返品は30日以内に可能です。\n", StatusShipped},
		{"주문 발송", "주문하신 상품이 발송되었습니다.\n반품 가능 기간: 수령 후 7일 이내\n", StatusShipped},
		{"Sipariş kargoda", "Siparişiniz kargoya verildi.\n14 gün içinde ücretsiz iade.\n", StatusShipped},
		{"Order 55120", "Your order has shipped.\nReturns accepted for 30 days.\n", StatusShipped},
		// Returns done stay returns.
		{"Your return has been received", "We have received your return.\nYour refund has been issued.\n", StatusReturned},
		{"Order 55120", "Your parcel was returned to sender.\n", StatusReturned},
		{"Rücksendung eingegangen", "Wir haben Ihre Rücksendung erhalten.\n", StatusReturned},
		{"Повернення оформлено", "Ваше повернення отримано, кошти повернуто.\n", StatusReturned},
		// A parcel's receipt is still its delivery.
		{"Посилку отримано", "Вашу посилку отримано одержувачем.\n", StatusDelivered},
		{"Пратката е получена", "Пратката ви е получена.\n", StatusDelivered},
		{"Το δέμα σας παραλήφθηκε", "Το δέμα σας παραλήφθηκε.\n", StatusDelivered},
	} {
		if got := orderStatusOf(c.subject, c.text); got != c.want {
			t.Errorf("orderStatusOf(%q, %q) = %q, want %q", c.subject, c.text, got, c.want)
		}
	}
}

// TestReturnPolicyBounded: a hostile line of return words costs each a
// bounded look.
func TestReturnPolicyBounded(t *testing.T) {
	s := ""
	for range 5000 {
		s += "return "
	}
	if inReturnPolicy(s, len("return")) {
		t.Errorf("a line of returns read as a policy")
	}
}

// TestStatusInLineBounded: statusIn reads a phrase's clause and a
// return's terms within lineAround's reach, not across the line: one line
// of 800 KB of "returned" took 18 s when inReturnPolicy scanned the whole
// line for each phrase.
func TestStatusInLineBounded(t *testing.T) {
	s := "order 123 " + strings.Repeat("returned ", 800_000/9)
	start := processCPU()
	statusIn(s)
	if d := processCPU() - start; d > 3*time.Second*raceSlowdown {
		t.Errorf("statusIn of an 800 KB line took %v", d)
	}
}
